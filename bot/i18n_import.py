"""Port sentences written as Python dicts (`EN = {...}`, `FR = {...}`, `register({...})`)
into the Fluent catalogue files under `bot/locales/`.

Why a tool: the catalogue used to be Python dicts, and code written against that habit
(a branch that added a block of keys to `bot/i18n.py`, a renderer's `register({...})`)
still arrives that way. This reads such a file without running it, and appends to each
language's `.ftl` file the keys that language does not have yet, converting `{name}` to
`{ $name }` and a `key` / `key.one` pair to one message with CLDR plural variants.

    python -m bot.i18n_import SOURCE.py [--base BASE.py] [--file tapis.ftl] [--replace]
                                        [--dry-run]
    python -m bot.i18n_import BLOCK.txt --lang en      # a bare `"key": "text",` block

With `--base` (the same file as it was where the branch started), only what the branch
added or changed is considered: a sentence the branch left alone never overwrites the
files, even with `--replace`.

Keys a language already has are left alone unless `--replace` (then a changed sentence
overwrites the file's one). What it printed (added, changed, skipped) is what to review.
"""

import argparse
import ast
import re
import string
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from fluent.syntax import FluentParser, FluentSerializer
from fluent.syntax import ast as ftl
from fluent.syntax.visitor import Visitor

LOCALES = Path(__file__).resolve().parent / "locales"
DEFAULT_FILE = "tapis.ftl"
_LANG_NAME = re.compile(r"[A-Z]{2}")
_COMMENT = re.compile(r"^\s*#\s?(.*)$")
Element = ftl.TextElement | ftl.Placeable
_KEY_LINE = re.compile(r"""^\s*["']([^"']+)["']\s*:""")


class ImportError_(ValueError):
    """The source is not a dict of string literals this tool can read."""


def message_id(key: str) -> str:
    """Fluent ids allow letters, digits, `-` and `_` only: `refusal.too_low` becomes
    `refusal--too_low` (no key uses `--`, so the mapping goes both ways)."""
    return key.replace(".", "--")


def key_of(message: str) -> str:
    return message.replace("--", ".")


# --- reading Fluent back as str.format templates ------------------------------------------


def _flat(elements: Sequence[Element | ftl.Expression]) -> str:
    """A pattern as a str.format template: what callers that still read templates see
    (`CATALOGUES`, tests matching sentences); a nested select shows its default variant."""
    out = ""
    for element in elements:
        if isinstance(element, ftl.TextElement):
            out += element.value.replace("{", "{{").replace("}", "}}")
            continue
        expression = element.expression if isinstance(element, ftl.Placeable) else element
        if isinstance(expression, ftl.VariableReference):
            out += "{" + expression.id.name + "}"
        elif isinstance(expression, ftl.StringLiteral):
            value = expression.parse()["value"]
            out += value.replace("{", "{{").replace("}", "}}")
        elif isinstance(expression, ftl.NumberLiteral):
            out += expression.value
        elif isinstance(expression, ftl.SelectExpression):
            default = next(v for v in expression.variants if v.default)
            out += _flat(default.value.elements)
        elif isinstance(expression, ftl.Placeable):
            out += _flat([expression])
    return out


def flatten(msg: ftl.Message) -> dict[str, str]:
    """{key: template}, and `key.one` when the whole message is a plural select."""
    assert msg.value is not None
    key = key_of(msg.id.name)
    elements = msg.value.elements
    if (len(elements) == 1 and isinstance(elements[0], ftl.Placeable)
            and isinstance(elements[0].expression, ftl.SelectExpression)):
        select = elements[0].expression
        out = {key: _flat(next(v for v in select.variants if v.default).value.elements)}
        for variant in select.variants:
            if isinstance(variant.key, ftl.Identifier) and variant.key.name == "one":
                out[f"{key}.one"] = _flat(variant.value.elements)
        return out
    return {key: _flat(elements)}


def variables(msg: ftl.Message) -> set[str]:
    """Every `$name` a message reads, selectors included."""
    found: set[str] = set()

    class Names(Visitor):
        def visit_VariableReference(self, node: ftl.VariableReference) -> None:
            found.add(node.id.name)

    Names().visit(msg)
    return found


def parse_dir(lang_dir: Path) -> list[ftl.Message]:
    return messages_of(parse_resources(lang_dir))


def messages_of(resources: list[ftl.Resource]) -> list[ftl.Message]:
    return [entry for resource in resources for entry in resource.body
            if isinstance(entry, ftl.Message)]


def parse_resources(lang_dir: Path) -> list[ftl.Resource]:
    """Each file of a language once: parsing is most of what importing the sentences
    costs (every process start), so the bundle and the catalogues share one parse."""
    parser = FluentParser(with_spans=False)
    out: list[ftl.Resource] = []
    for path in sorted(lang_dir.glob("*.ftl")):
        resource = parser.parse(path.read_text(encoding="utf-8"))
        for entry in resource.body:
            if isinstance(entry, ftl.Junk):
                raise ImportError_(f"{path}: cannot parse {(entry.content or '')[:60]!r}")
        out.append(resource)
    return out


def templates_of(lang_dir: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for msg in parse_dir(lang_dir):
        out.update(flatten(msg))
    return out


# --- reading Python ---------------------------------------------------------------------


def _literal_dict(node: ast.expr, names: dict[str, dict[str, str]]) -> dict[str, str] | None:
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if not isinstance(node, ast.Dict):
        return None
    out: dict[str, str] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if isinstance(value, ast.JoinedStr | ast.BinOp | ast.Call):
            raise ImportError_(f"line {value.lineno}: {key.value!r} is built by code; "
                               "write it as a plain string")
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            return None
        out[key.value] = value.value
    return out


def read_python(source: str) -> dict[str, dict[str, str]]:
    """{lang: {key: template}} from `EN = {...}`-style assignments and `register({...})`."""
    tree = ast.parse(source)
    names: dict[str, dict[str, str]] = {}
    found: dict[str, dict[str, str]] = {}
    for node in ast.walk(tree):
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        if isinstance(target, ast.Name) and value is not None:
            entries = _literal_dict(value, names)
            if entries is not None:
                names[target.id] = entries
                if _LANG_NAME.fullmatch(target.id):
                    found.setdefault(target.id.lower(), {}).update(entries)
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register"
                and node.args and isinstance(node.args[0], ast.Dict)):
            for lang_node, entries_node in zip(node.args[0].keys, node.args[0].values,
                                               strict=True):
                if isinstance(lang_node, ast.Constant) and isinstance(lang_node.value, str):
                    entries = _literal_dict(entries_node, names)
                    if entries is not None:
                        found.setdefault(lang_node.value, {}).update(entries)
    return found


def read_block(source: str) -> dict[str, str]:
    """A bare `"key": "text",` block, as a branch adds at the end of a dict."""
    try:
        node = ast.parse("{" + source + "\n}", mode="eval").body
    except SyntaxError as exc:
        raise ImportError_(f"not a block of dict entries: {exc}") from exc
    entries = _literal_dict(node, {})
    if entries is None:
        raise ImportError_("not a block of string entries")
    return entries


def comments(source: str) -> dict[str, list[str]]:
    """The `# ...` lines right above a key, kept as the translator's note in the file."""
    notes: dict[str, list[str]] = {}
    pending: list[str] = []
    for line in source.splitlines():
        comment = _COMMENT.match(line)
        if comment:
            pending.append(comment.group(1))
            continue
        key = _KEY_LINE.match(line)
        if key and pending:
            notes.setdefault(key.group(1), pending)
        pending = [] if line.strip() else pending
        if key:
            pending = []
    return notes


# --- writing Fluent ---------------------------------------------------------------------


def _literal(text: str) -> ftl.Placeable:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return ftl.Placeable(ftl.StringLiteral(escaped))


def _text(text: str) -> list[Element]:
    """Plain text as pattern elements; what Fluent would trim or read as syntax (spaces at
    either end, `[`, `*`, `.` opening a line, `{` and `}`) goes in string literals."""
    elements: list[Element] = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if i:
            elements.append(ftl.TextElement("\n"))
        for part in re.split(r"([{}])", line):
            if part in ("{", "}"):
                elements.append(_literal(part))
            elif part:
                elements.append(ftl.TextElement(part))
    merged: list[Element] = []
    for element in elements:  # one TextElement per run, as the parser would make it
        if (merged and isinstance(element, ftl.TextElement)
                and isinstance(merged[-1], ftl.TextElement)):
            merged[-1] = ftl.TextElement(merged[-1].value + element.value)
        else:
            merged.append(element)
    return merged


def _pattern(template: str) -> ftl.Pattern:
    """`{name}` placeholders of str.format become `{ $name }`."""
    elements: list[Element] = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        elements.extend(_text(literal))
        if name is not None:
            if not name.isidentifier():
                raise ImportError_(f"placeholder {{{name}}} is not a plain name")
            elements.append(ftl.Placeable(ftl.VariableReference(ftl.Identifier(name))))
    return _protect(elements)


def _protect(elements: list[Element]) -> ftl.Pattern:
    out: list[Element] = []
    for element in elements:
        if not isinstance(element, ftl.TextElement):
            out.append(element)
            continue
        lines = element.value.split("\n")
        for i, line in enumerate(lines):
            if i:
                out.append(ftl.TextElement("\n"))
            at_line_start = i > 0 or not out or (
                isinstance(out[-1], ftl.TextElement) and out[-1].value.endswith("\n"))
            if at_line_start and line[:1] in ("[", "*", "."):
                out.append(_literal(line[0]))
                line = line[1:]
            if line:
                out.append(ftl.TextElement(line))
    if not out:
        out.append(_literal(""))
    first = out[0]  # Fluent trims blanks at either end of a message
    if isinstance(first, ftl.TextElement) and first.value.startswith(" "):
        rest = first.value.lstrip(" ")
        lead = first.value[: len(first.value) - len(rest)]
        out[0:1] = [_literal(lead), *([ftl.TextElement(rest)] if rest else [])]
    last = out[-1]
    if isinstance(last, ftl.TextElement) and last.value.endswith(" "):
        rest = last.value.rstrip(" ")
        trail = last.value[len(rest):]
        out[-1:] = [*([ftl.TextElement(rest)] if rest else []), _literal(trail)]
    return ftl.Pattern(out)


def message(key: str, template: str, one: str | None = None,
            note: Iterable[str] = ()) -> ftl.Message:
    """One Fluent message; with `one`, a select by CLDR plural category on `$n`, or on
    `$count` when the sentence counts with that name (`player_count`): a select on a
    variable the caller never passes would always pick the default variant."""
    if one is None:
        value = _pattern(template)
    else:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        selector = "count" if "n" not in names and "count" in names else "n"
        select = ftl.SelectExpression(
            ftl.VariableReference(ftl.Identifier(selector)),
            [ftl.Variant(ftl.Identifier("one"), _pattern(one)),
             ftl.Variant(ftl.Identifier("other"), _pattern(template), default=True)])
        value = ftl.Pattern([ftl.Placeable(select)])
    text = "\n".join(note)
    return ftl.Message(ftl.Identifier(message_id(key)), value,
                       comment=ftl.Comment(text) if text else None)


def messages(entries: dict[str, str],
             notes: dict[str, list[str]] | None = None) -> list[ftl.Message]:
    """Messages in the dict's order; `x.one` joins `x` as its singular variant."""
    notes = notes or {}
    out = []
    for key, template in entries.items():
        if key.endswith(".one") and key[:-4] in entries:
            continue
        out.append(message(key, template, entries.get(f"{key}.one"),
                           notes.get(key, ())))
    return out


def existing_ids(lang_dir: Path) -> dict[str, Path]:
    parser = FluentParser(with_spans=False)
    ids: dict[str, Path] = {}
    for path in sorted(lang_dir.glob("*.ftl")):
        for entry in parser.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(entry, ftl.Message):
                ids[entry.id.name] = path
    return ids


def _serialize(entries: list[ftl.Message]) -> str:
    return FluentSerializer().serialize(ftl.Resource(list(entries)))


def merge(lang_dir: Path, entries: dict[str, str], *, file: str = DEFAULT_FILE,
          notes: dict[str, list[str]] | None = None, origin: str = "",
          replace: bool = False, dry_run: bool = False) -> dict[str, list[str]]:
    """Append the keys `lang_dir` lacks; returns {"added", "changed", "kept"} key lists."""
    have = existing_ids(lang_dir)
    current = templates_of(lang_dir)
    report: dict[str, list[str]] = {"added": [], "changed": [], "kept": []}
    new: list[ftl.Message] = []
    for msg in messages(entries, notes):
        key = key_of(msg.id.name)
        if msg.id.name not in have:
            new.append(msg)
            report["added"].append(key)
            continue
        wanted = [entries[key], entries.get(f"{key}.one")]
        now = [current.get(key), current.get(f"{key}.one") if wanted[1] is not None else None]
        if now == wanted:
            report["kept"].append(key)
            continue
        report["changed"].append(key)
        if replace and not dry_run:
            _replace(have[msg.id.name], msg)
    if new and not dry_run:
        lang_dir.mkdir(parents=True, exist_ok=True)
        path = lang_dir / file
        before = path.read_text(encoding="utf-8") if path.exists() else ""
        header = f"\n## Imported from {origin}\n\n" if origin else "\n"
        joiner = "" if not before or before.endswith("\n") else "\n"
        path.write_text(before + joiner + header + _serialize(new), encoding="utf-8")
    return report


def _replace(path: Path, msg: ftl.Message) -> None:
    resource = FluentParser(with_spans=False).parse(path.read_text(encoding="utf-8"))
    for i, entry in enumerate(resource.body):
        if isinstance(entry, ftl.Message) and entry.id.name == msg.id.name:
            msg.comment = msg.comment or entry.comment
            resource.body[i] = msg
    path.write_text(FluentSerializer(with_junk=True).serialize(resource), encoding="utf-8")


def branch_changes(entries: dict[str, str], base: dict[str, str]) -> dict[str, str]:
    """The entries added or changed since `base`, with their plural partners."""
    changed = {k for k, v in entries.items() if base.get(k) != v}
    keep = changed | {k.removesuffix(".one") for k in changed} | {f"{k}.one" for k in changed}
    return {k: v for k, v in entries.items() if k in keep}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.i18n_import",
        description="Append the sentences of a Python file (EN = {...}, FR = {...}, "
                    "register({...})) to the Fluent catalogues, keys a language lacks only.")
    parser.add_argument("source", type=Path, help="the Python file (or a bare block)")
    parser.add_argument("--base", type=Path,
                        help="SOURCE as it was before the branch: port only its changes")
    parser.add_argument("--lang", help="SOURCE is a bare `\"key\": \"text\",` block in LANG")
    parser.add_argument("--file", default=DEFAULT_FILE,
                        help=f"the .ftl file new keys go to (default {DEFAULT_FILE})")
    parser.add_argument("--locales", type=Path, default=LOCALES, help="the locales folder")
    parser.add_argument("--replace", action="store_true",
                        help="overwrite sentences whose text differs from the file's")
    parser.add_argument("--dry-run", action="store_true", help="report, write nothing")
    args = parser.parse_args(argv)
    text = args.source.read_text(encoding="utf-8")
    try:
        found = {args.lang: read_block(text)} if args.lang else read_python(text)
        if args.base is not None:
            base_text = args.base.read_text(encoding="utf-8")
            base = {args.lang: read_block(base_text)} if args.lang else read_python(base_text)
            found = {lang: branch_changes(entries, base.get(lang, {}))
                     for lang, entries in found.items()}
    except (ImportError_, SyntaxError) as exc:
        print(f"{args.source}: {exc}", file=sys.stderr)
        return 2
    if not found:
        print(f"{args.source}: no EN/FR/… dict or register({{…}}) call found", file=sys.stderr)
        return 2
    notes = comments(text)
    for lang, entries in found.items():
        report = merge(args.locales / lang, entries, file=args.file, notes=notes,
                       origin=args.source.name, replace=args.replace, dry_run=args.dry_run)
        for kind in ("added", "changed"):
            if report[kind]:
                verb = kind if kind == "added" or args.replace else "differs (kept the file's)"
                print(f"{lang}: {len(report[kind])} {verb}: {', '.join(report[kind])}")
        print(f"{lang}: {len(report['kept'])} already there")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
