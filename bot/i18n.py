"""Every sentence a user reads, in every language under `bot/locales/`.

The sentences live in Project Fluent files (`bot/locales/<lang>/*.ftl`) that a translator
edits without touching Python; plural forms and the way numbers are written (`3,0`,
`1.000`) come from CLDR through `fluent.runtime` and Babel, so a language brings its own
rules instead of code here. Keys keep their dotted
names (`refusal.too_low`); in the files the dots are written `--`, as Fluent ids allow no
dots. `CATALOGUES` still offers every sentence as a str.format template (the default
variant, and `key.one` for a plural's singular) for code and tests that read templates.
"""

import hashlib
import logging
import os
import pickle
import sys
import tempfile
from contextvars import ContextVar
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal
from fluent.runtime import FluentBundle
from fluent.runtime.resolver import CurrentEnvironment, Pattern, ResolverEnvironment
from fluent.runtime.types import FluentInt, FluentNone, FluentType
from fluent.syntax import ast as ftl

from bot.i18n_import import (
    flatten,
    key_of,
    message_id,
    messages_of,
    parse_resources,
    variables,
)

log = logging.getLogger(__name__)

LOCALES = Path(str(resources.files("bot") / "locales"))


def _langs() -> tuple[str, ...]:
    found = sorted(p.name for p in LOCALES.iterdir() if p.is_dir() and any(p.glob("*.ftl")))
    return ("en", *[code for code in found if code != "en"])


# English first (the fallback), then every other folder of bot/locales.
LANGS = _langs()
_BUNDLES: dict[str, FluentBundle] = {}
_MESSAGES: dict[str, dict[str, ftl.Message]] = {}
_VARIABLES: dict[str, dict[str, frozenset[str]]] = {}
# Messages of text and variables only, as str.format templates: formatting them is a tenth
# of Fluent's resolver, gives the same text, and most sentences are such messages.
_PLAIN: dict[str, dict[str, str]] = {}
# Plural messages (one select on a variable, plain variants): the variable, the variants by
# CLDR category, the default one. Babel's plural rule picks the category, as Fluent would.
_PLURALS: dict[str, dict[str, tuple[str, dict[str, str], str]]] = {}
CATALOGUES: dict[str, dict[str, str]] = {}
# Sentences added at run time by register(): str.format templates, as before the files.
_REGISTERED: dict[str, dict[str, str]] = {}
# Where the sentences are read: a place with its own wording (the console says "type",
# not "tap") registers `DIALECTS[name][lang]`, sets this for its run, and every `t()` made
# from that context (tasks inherit it) reads the place's sentence first, then the plain one.
DIALECT: ContextVar[str | None] = ContextVar("tapis_dialect", default=None)
DIALECTS: dict[str, dict[str, dict[str, str]]] = {}


class _Bundle(FluentBundle):
    """A bundle that takes arguments already made Fluent values (`_arg`): the stock one
    turns every int back into a plain FluentInt, which Babel formats with a hyphen for a
    minus sign, where the sentences show a true one (`number`)."""

    def format_pattern(self, pattern: Pattern, args: dict[str, Any] | None = None,
                       ) -> tuple[str | FluentNone, list[Exception]]:
        errors: list[Exception] = []
        env = ResolverEnvironment(context=self, current=CurrentEnvironment(args=args or {}),
                                  errors=errors)
        try:
            result = pattern(env)
        except ValueError as exc:
            errors.append(exc)
            result = "{???}"
        return result, errors


# What a language's files parse to, with each message's variables: {lang: (resources,
# {message id: variables})}.
_Parsed = dict[str, tuple[list[ftl.Resource], dict[str, frozenset[str]]]]
# Changed whenever what a cache file holds changes.
_CACHE_FORMAT = "1"


def _parse(langs: tuple[str, ...]) -> _Parsed:
    out: _Parsed = {}
    for lang in langs:
        resources = parse_resources(LOCALES / lang)
        out[lang] = (resources, {m.id.name: frozenset(variables(m))
                                 for m in messages_of(resources)})
    return out


def _cache_file(langs: tuple[str, ...]) -> Path | None:
    """The cache of the files as they are now: named by a hash of their text (and of what
    reads it), so an edited file, a new language or another Fluent version is a miss."""
    syntax = os.stat(ftl.__file__)  # fluent.syntax's classes are what the pickle holds
    digest = hashlib.sha256(f"{_CACHE_FORMAT} {sys.version} {ftl.__file__}"
                            f" {syntax.st_size} {syntax.st_mtime_ns}".encode())
    for lang in langs:
        for path in sorted((LOCALES / lang).glob("*.ftl")):
            digest.update(f"\0{lang}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    try:
        home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home folder to be found
        return None
    return home / "tapis" / f"locales-{digest.hexdigest()[:32]}.pickle"


def _parsed(langs: tuple[str, ...]) -> _Parsed:
    """The files parsed, from the user's cache when it holds them as they are.

    Parsing every language's files was a third of a process's start (every `python -m
    bot`, every restart, every test worker); unpickling them is a twentieth of that. Any
    trouble with the cache (unwritable, corrupt, someone else's file) only means a parse.
    """
    try:
        path = _cache_file(langs)
    except OSError:
        path = None
    if path is None:
        return _parse(langs)
    try:
        with path.open("rb") as file:
            info = os.fstat(file.fileno())
            # A pickle runs code as it loads: only a file of ours that nobody else may edit.
            if info.st_uid == os.getuid() and not info.st_mode & 0o022:
                cached = pickle.load(file)
                if isinstance(cached, dict) and tuple(cached) == langs:
                    return cached
    except FileNotFoundError:
        pass
    except Exception:  # a cache: whatever is wrong with it, parse instead
        log.debug("locale cache %s unreadable, parsing the files", path, exc_info=True)
    parsed = _parse(langs)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        for old in path.parent.glob("locales-*.pickle"):  # files since edited
            old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".locales-")
    except OSError:
        log.debug("locale cache %s not written", path, exc_info=True)
        return parsed
    try:
        with os.fdopen(fd, "wb") as file:
            pickle.dump(parsed, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)  # whole or not at all, whoever reads it meanwhile
    except OSError:
        log.debug("locale cache %s not written", path, exc_info=True)
        Path(tmp).unlink(missing_ok=True)
    return parsed


def _load(lang: str, resources: list[ftl.Resource],
          message_variables: dict[str, frozenset[str]]) -> None:
    bundle = _Bundle([lang], use_isolating=False)
    for resource in resources:
        bundle.add_resource(resource)
    messages = messages_of(resources)
    _BUNDLES[lang] = bundle
    _MESSAGES[lang] = {m.id.name: m for m in messages}
    _VARIABLES[lang] = message_variables
    catalogue = CATALOGUES.setdefault(lang, {})
    plain = _PLAIN.setdefault(lang, {})
    for msg in messages:
        catalogue.update(flatten(msg))
        if _is_plain(msg):
            plain[msg.id.name] = catalogue[key_of(msg.id.name)]
        plural = _plural_of(msg)
        if plural is not None:
            _PLURALS.setdefault(lang, {})[msg.id.name] = plural


def _plural_of(msg: ftl.Message) -> tuple[str, dict[str, str], str] | None:
    elements = msg.value.elements if msg.value is not None else []
    if len(elements) != 1 or not isinstance(elements[0], ftl.Placeable):
        return None
    select = elements[0].expression
    if not (isinstance(select, ftl.SelectExpression)
            and isinstance(select.selector, ftl.VariableReference)):
        return None
    variants: dict[str, str] = {}
    default = ""
    for variant in select.variants:
        if not isinstance(variant.key, ftl.Identifier) or not _is_plain(
                ftl.Message(msg.id, variant.value)):
            return None  # exact numbers ([0]), nested selects: Fluent resolves those
        template = flatten(ftl.Message(msg.id, variant.value))[key_of(msg.id.name)]
        variants[variant.key.name] = template
        if variant.default:
            default = template
    return select.selector.id.name, variants, default


def _is_plain(msg: ftl.Message) -> bool:
    return msg.value is not None and all(
        isinstance(e, ftl.TextElement) or (isinstance(e, ftl.Placeable) and isinstance(
            e.expression, ftl.VariableReference | ftl.StringLiteral))
        for e in msg.value.elements)


for _lang, (_resources, _variables) in _parsed(LANGS).items():
    _load(_lang, _resources, _variables)
EN = CATALOGUES["en"]
FR = CATALOGUES["fr"]


class _Number(FluentInt):
    """An int said in a sentence: as players of the language read it (`number`); Fluent
    still picks a plural variant from it."""

    lang = "en"

    def format(self, locale: Any) -> str:
        return number(int(self), lang=self.lang)


def _number_in(lang: str, value: int) -> _Number:
    made = _Number(value)
    made.lang = lang
    return made


def message_variables(lang: str, key: str) -> set[str]:
    """The `$names` the language's sentence for `key` reads (tests compare languages)."""
    return set(_VARIABLES.get(lang, {}).get(message_id(key), ()))


def message_keys(lang: str) -> list[str]:
    """The keys of the language's files, plural pairs as one key."""
    return [key_of(name) for name in _MESSAGES.get(lang, {})]


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _show(value: Any, lang: str) -> str:
    if isinstance(value, _Number):  # a count in a sentence without plural variants
        return value.format(None)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return number(value, lang=lang)
    if isinstance(value, list | tuple):
        return " ".join(_show(v, lang) for v in value)
    return str(value)


def has(lang: str, key: str) -> bool:
    return key in CATALOGUES.get(lang, EN) or key in _dialect(lang)


def _dialect(lang: str) -> dict[str, str]:
    name = DIALECT.get()
    return DIALECTS.get(name, {}).get(lang, {}) if name else {}


def _format(lang: str, key: str, template: str, params: dict[str, Any]) -> str:
    try:
        # format_map consults _Lenient.__missing__, so a forgotten parameter shows "?".
        return template.format_map(_Lenient({k: _show(v, lang) for k, v in params.items()}))
    except (ValueError, IndexError, AttributeError, KeyError):
        log.exception("bad template %s/%s", lang, key)
        return template


def known(lang: str, key: str) -> bool:
    """Whether `t(lang, key)` finds a sentence: the language's own, or the English one."""
    return has(lang, key) or has("en", key)


def number(n: float, *, signed: bool = False, lang: str = "en") -> str:
    """A number as players of `lang` read it, formatted by Babel with the locale's digit
    grouping and decimal sign (`3.0` in English, `3,0` in French and German; a float keeps
    at least one decimal), a true minus sign (−6) and, `signed`, a plus (+7).

    Every number a sentence shows comes through here: the ints and floats given to `t`
    and `count`, and those a renderer writes itself."""
    memo = (number, n, type(n), signed, lang)
    text = _MEMO.get(memo)
    if text is None:
        digits = "#,##0.0##" if isinstance(n, float) else None
        text = format_decimal(abs(n), format=digits, locale=_locale(lang))
        text = f"−{text}" if n < 0 else text
        text = f"+{text}" if signed and n > 0 else text
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[memo] = text
    return text


@cache
def _locale(lang: str) -> Locale:
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def count(lang: str, unit: str, n: int) -> str:
    """`1 card`, `3 cards`: the message `n.<unit>`, whose variant the language's CLDR plural
    rules pick (French takes the singular for 0 too).

    Remembered apart from `t`'s memo: a table shows a count for every seat at every move,
    and making the Fluent number to look it up there cost more than the lookup."""
    memo = (count, lang, unit, n, DIALECT.get())  # `count` first: never one of t's keys
    text = _MEMO.get(memo)
    if text is None:
        text = t(lang, f"n.{unit}", n=_number_in(lang, n))
        _MEMO[memo] = text
    return text


def _arg(value: Any, lang: str) -> Any:
    if isinstance(value, FluentType):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return _number_in(lang, value)
    return _show(value, lang)


def _fluent(lang: str, key: str, params: dict[str, Any]) -> str | None:
    bundle = _BUNDLES.get(lang)
    name = message_id(key)
    plain = _PLAIN.get(lang, {}).get(name)
    if plain is None:
        plain = _plural_template(lang, name, params)
    if plain is not None:
        return plain.format_map(_Lenient({k: _show(v, lang) for k, v in params.items()}))
    if bundle is None or not bundle.has_message(name):
        return None
    msg = bundle.get_message(name)
    if msg.value is None:  # a message with attributes only: nothing to say
        return None
    args = {k: _arg(v, lang) for k, v in params.items()}
    for missing in _VARIABLES[lang].get(name, frozenset()) - args.keys():
        args[missing] = "?"  # a forgotten parameter shows "?", never the raw $name
    text, errors = bundle.format_pattern(msg.value, args)
    if errors:
        log.error("bad sentence %s/%s: %s", lang, key, errors)
    return "" if isinstance(text, FluentNone) else str(text)


def _template(lang: str, key: str, params: dict[str, Any]) -> str | None:
    template = _REGISTERED.get(lang, {}).get(key)
    if template is None and key.endswith(".one"):
        template = CATALOGUES.get(lang, {}).get(key)  # a plural's singular, asked by name
    if template is None:
        return None
    try:
        # format_map consults _Lenient.__missing__, so a forgotten parameter shows "?".
        return template.format_map(_Lenient({k: _show(v, lang) for k, v in params.items()}))
    except (ValueError, IndexError, AttributeError, KeyError):
        log.exception("bad template %s/%s", lang, key)
        return template


@cache
def _game_names() -> dict[str, str]:
    from engine import games  # the engines never import the bot: no cycle

    return {games.get(game_id).NAME: game_id for game_id in games.ids()}


def _local_game(lang: str, params: dict[str, Any]) -> dict[str, Any]:
    """A `game` parameter holding a game's own name reads as the language's name for it
    (`game.ochs-esel`: "Ochs und Esel" in German), in every sentence that names a game,
    without each caller looking it up."""
    name = params.get("game")
    game_id = _game_names().get(name) if isinstance(name, str) else None
    if game_id is not None and f"game.{game_id}" in CATALOGUES.get(lang, {}):
        return {**params, "game": t(lang, f"game.{game_id}")}
    return params


def _plural_template(lang: str, name: str, params: dict[str, Any]) -> str | None:
    plural = _PLURALS.get(lang, {}).get(name)
    if plural is None:
        return None
    variable, variants, default = plural
    value = params.get(variable)
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return variants.get(_category(lang, abs(int(value))), default)


@cache
def _category(lang: str, n: int) -> str:
    """The CLDR plural category of `n` in `lang` (counts repeat: a table shows the same
    few numbers again and again)."""
    return str(_BUNDLES[lang]._plural_form(n))


_MEMO: dict[tuple[Any, ...], str] = {}
_MEMO_SIZE = 50_000  # sentences; emptied when full (a table repeats a few hundred)


def t(lang: str, key: str, /, **params: Any) -> str:
    """The sentence `key` in `lang` (English if missing); a bad sentence never raises.

    Remembered by its arguments: every move redraws a table of the same few dozen
    sentences (names, scores, headings), and formatting them was a quarter of a move's
    CPU time."""
    try:
        memo = (lang, key, DIALECT.get(), *params.items())
        text = _MEMO.get(memo)
    except TypeError:  # a parameter that cannot be a key (a list): formatted each time
        return _t(lang, key, params)
    if text is None:
        text = _t(lang, key, params)
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[memo] = text
    return text


def _t(lang: str, key: str, params: dict[str, Any]) -> str:
    lang = lang if lang in CATALOGUES else "en"
    params = _local_game(lang, params)
    for code in dict.fromkeys((lang, "en")):
        dialect = _dialect(code).get(key)
        if dialect is not None:  # the place's own wording first, in each language
            return _format(code, key, dialect, params)
        text = _fluent(code, key, params)
        if text is None:
            text = _template(code, key, params)
        if text is not None:
            return text
    log.error("missing translation key %s", key)
    return key


def register(extra: dict[str, dict[str, str]]) -> None:
    """Sentences added by code as str.format templates (the files come first).

    Kept for code written before the files; port such dicts into the files with
    `python -m bot.i18n_import`, so translators see them."""
    _MEMO.clear()
    for lang, entries in extra.items():
        fresh = {k: v for k, v in entries.items() if k not in CATALOGUES.get(lang, {})}
        _REGISTERED.setdefault(lang, {}).update(fresh)
        CATALOGUES.setdefault(lang, {}).update(fresh)


def register_dialect(name: str, extra: dict[str, dict[str, str]]) -> None:
    """A place's own sentences (see `DIALECT`), as str.format templates: only keys the
    plain catalogue has, reworded for the place."""
    _MEMO.clear()
    for lang, entries in extra.items():
        DIALECTS.setdefault(name, {}).setdefault(lang, {}).update(entries)
