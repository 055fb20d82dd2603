"""How a Michigan table reads in chat: the pay cards and their chips, the suit being
played upwards, and the auction of the extra hand while it runs.

One lead sets off many forced plays ("qui a la carte suivante doit la jouer"), each an
event: `describe_events` folds a lead and its forced plays into one line
(`Alice leads ♥: Alice 5♥ 6♥ · Bob 7♥ — …`), so the few narration lines the table keeps
are not all spent on a single suit. `describe`, one event at a time, stays silent on
forced plays: the table's sequence line shows them.
"""

from typing import Any

from bot.i18n import count, number, t
from bot.render import Button
from bot.renderers import generic
from bot.renderers.generic import player_name
from engine.core.types import Move
from engine.michigan import PAY_CARDS, RANKS, SUITS, Auction, Bid, Keep, Lead, Pass, Swap

MAX_BUTTONS = 24
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
BID_STEPS = (0, 1, 2, 5, 10)  # above the lowest allowed bid: a few useful amounts


# --- cards ----------------------------------------------------------------------------------

def card_text(code: str, lang: str) -> str:
    """`10H` → `10♥`, `QD` → `Q♦` (`D♦` in French, as the French rulebook names a queen)."""
    rank, suit = code[:-1], code[-1]
    if not rank.isdigit():
        rank = t(lang, f"mi.rank.{rank}")
    return f"{rank}{SYMBOLS.get(suit, suit)}"


def cards_text(cards: list[str], lang: str) -> str:
    return " ".join(card_text(c, lang) for c in cards) if cards else "—"


def hand_text(cards: list[str], lang: str) -> str:
    """The hand by suit, `2♠ 5♠ J♠ · 3♥ 4♥`: a lead is a choice of suit."""
    groups = [[c for c in cards if c[-1] == suit] for suit in SUITS]
    return " · ".join(cards_text(g, lang) for g in groups if g)


def _suit(suit: str, lang: str) -> str:
    return f"{SYMBOLS.get(suit, suit)} {t(lang, f'mi.suit.{suit}')}"


def refusal_params(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """Suits named as the table names them (`♥ hearts`, not the code `H`)."""
    return {name: _suit(value, lang) if name in ("suit", "previous")
            and isinstance(value, str) and value in SYMBOLS else value
            for name, value in params.items()}


def _piles(pay_cards: list[list[Any]], lang: str) -> str:
    return " · ".join(f"{card_text(card, lang)} {number(chips, lang=lang)}"
                      for card, chips in pay_cards)


def _runs(plays: list[tuple[int, str]], names: list[str], lang: str) -> str:
    """`Bob 5♥ 6♥ · Carol 7♥`: consecutive cards of one player under one name."""
    groups: list[tuple[int, list[str]]] = []
    for seat, card in plays:
        if groups and groups[-1][0] == seat:
            groups[-1][1].append(card)
        else:
            groups.append((seat, [card]))
    return " · ".join(f"{player_name(seat, names)} {cards_text(cards, lang)}"
                      for seat, cards in groups)


def _next_card(card: str) -> str | None:
    rank = RANKS.index(card[:-1])
    return None if rank + 1 >= len(RANKS) else RANKS[rank + 1] + card[-1]


def _stop(ev: dict[str, Any], names: list[str], lang: str) -> str:
    seat = player_name(ev["seat"], names)
    following = _next_card(ev["card"])
    if ev.get("reason") == "ace" or following is None:
        return t(lang, "mi.stop.ace", seat=seat)
    key = "mi.stop.already_played" if ev.get("reason") == "already_played" \
        else "mi.stop.no_next_card"
    return t(lang, key, seat=seat, next=card_text(following, lang))


# --- the table ------------------------------------------------------------------------------

def public_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    lines = [t(lang, "mi.header", deal=view["deal"], deals=view["deals"],
               dealer=player_name(view["dealer"], names),
               phase=t(lang, f"mi.phase.{view['phase']}")),
             t(lang, "mi.pay", piles=_piles(view["pay_cards"], lang))]
    auction = view.get("auction")
    if auction is not None:
        if auction["open"]:
            if auction["high_bidder"] is None:
                lines.append(t(lang, "mi.auction_none", max=auction["max"]))
            else:
                lines.append(t(lang, "mi.auction_high", bid=auction["high_bid"],
                               name=player_name(auction["high_bidder"], names),
                               max=auction["max"]))
            if auction["passed"]:
                lines.append(t(lang, "mi.auction_passed", names=", ".join(
                    player_name(s, names) for s in auction["passed"])))
        elif view["phase"] == "play":
            if auction["high_bidder"] is None:
                lines.append(t(lang, "mi.auction_unsold"))
            else:
                lines.append(t(lang, "mi.auction_sold",
                               bid=count(lang, "chip", auction["high_bid"]),
                               name=player_name(auction["high_bidder"], names)))
    elif view["phase"] == "play" and view.get("decision") in ("swap", "keep"):
        lines.append(t(lang, f"mi.decided.{view['decision']}"))
    if view["phase"] == "play":
        sequence = [(seat, card) for seat, card in view["sequence"]]
        if sequence:
            lines.append(t(lang, "mi.sequence", suit=_suit(sequence[0][1][-1], lang),
                           plays=_runs(sequence, names, lang)))
        elif view.get("leader") is not None:
            lines.append(t(lang, "mi.no_sequence", name=player_name(view["leader"], names)))
    to_act = set(view["to_act"])
    for seat, size in enumerate(view["hand_sizes"]):
        played = view["played"][seat]
        lines.append(t(lang, "mi.seat", marker="▶ " if seat in to_act else "   ",
                       name=player_name(seat, names), cards=count(lang, "card", size),
                       chips=count(lang, "chip", view["chips"][seat]),
                       dealer=t(lang, "mi.seat_dealer") if seat == view["dealer"] else "",
                       played=t(lang, "mi.seat_played", cards=cards_text(played, lang))
                       if played else ""))
    return lines


def hand_lines(view: dict[str, Any], lang: str) -> list[str]:
    hand = view.get("hand", [])
    lines = [t(lang, "hand_cards", cards=hand_text(hand, lang)) if hand
             else t(lang, "hand_empty")]
    seat = view.get("seat")
    if seat not in view["to_act"]:
        return lines  # chips and pay piles move on others' turns: the table shows them
    pay = {card: chips for card, chips in view["pay_cards"]}
    held = [f"{card_text(c, lang)} ({number(pay[c], lang=lang)})" for c in hand if c in pay]
    if held:
        lines.append(t(lang, "mi.hand_pay", cards=", ".join(held)))
    discarded = view.get("discarded") or []
    if discarded:
        # Dead cards stop runs: a player at a table remembers the hand they gave up.
        lines.append(t(lang, "mi.hand_discarded", cards=hand_text(discarded, lang)))
    if seat is not None:
        lines.append(t(lang, "mi.hand_chips", chips=count(lang, "chip", view["chips"][seat])))
    if seat in view["to_act"]:
        auction = view.get("auction")
        if view["phase"] == "decision":
            lines.append(t(lang, "mi.hand_decide"))
        elif view["phase"] == "auction" and auction is not None:
            lines.append(t(lang, "mi.hand_bid", min=auction["high_bid"] + 1, max=auction["max"]))
        elif view["phase"] == "play":
            lines.append(t(lang, "mi.hand_lead"))
    return lines


def move_label(view: dict[str, Any], move: Move, lang: str) -> str:
    if isinstance(move, Bid):
        return t(lang, "mi.btn.bid", amount=move.amount)
    if isinstance(move, Swap | Keep | Auction):
        return t(lang, f"mi.btn.{move}")
    return t(lang, "btn_pass") if isinstance(move, Pass) else str(move)


def move_buttons(view: dict[str, Any], moves: list[Move], lang: str) -> tuple[list[Button], int]:
    """The three decisions; a few bids from the lowest allowed, and pass; one lead per suit."""
    buttons: list[Button] = []
    for move in moves:
        if isinstance(move, Swap | Keep | Auction):
            buttons.append(Button(t(lang, f"mi.btn.{move}"), f"m:{move}", "primary"))
    bids = sorted(m.amount for m in moves if isinstance(m, Bid))
    if bids:
        low, high = bids[0], bids[-1]
        amounts = sorted({low + step for step in BID_STEPS if low + step <= high} | {low})
        buttons += [Button(t(lang, "mi.btn.bid", amount=n), f"m:{Bid(n)}", "primary")
                    for n in amounts if Bid(n) in moves]
    buttons += [Button(t(lang, "btn_pass"), f"m:{m}", "danger")
                for m in moves if isinstance(m, Pass)]
    hand = view.get("hand", [])
    for move in moves:
        if isinstance(move, Lead):
            lowest = next((c for c in hand if c[-1] == move.suit), None)
            label = _suit(move.suit, lang) + (f" ({card_text(lowest, lang)})" if lowest else "")
            buttons.append(Button(label, f"m:{move}", "primary"))
    buttons = buttons[:MAX_BUTTONS]
    return buttons, len(moves) - len(buttons)


# --- narration ------------------------------------------------------------------------------

def _params(ev: dict[str, Any], names: list[str], lang: str) -> dict[str, Any]:
    params: dict[str, Any] = dict(ev)
    for key in ("seat", "dealer"):
        if isinstance(ev.get(key), int):
            params[key] = player_name(ev[key], names)
    if isinstance(ev.get("card"), str):
        params["card"] = card_text(ev["card"], lang)
    if isinstance(ev.get("suit"), str):
        params["suit"] = _suit(ev["suit"], lang)
    if isinstance(ev.get("pay_cards"), list):
        params["piles"] = _piles([[c, n] for c, n in zip(PAY_CARDS, ev["pay_cards"],
                                                          strict=False)], lang)
    return params


_NARRATED = {"swapped", "kept", "auction_opened", "bid", "passed", "auction_no_bid",
             "auction_won", "led", "pay_card_won", "sequence_stopped", "deal_over",
             "deal_started"}


def describe(game_id: str, ev: dict[str, Any], names: list[str], lang: str) -> str | None:
    kind = ev.get("type")
    if kind == "played":
        return None  # forced: the table's sequence line shows it (see the module docstring)
    if kind == "game_over":
        # The ranking is announced on its own; what it does not say is the chips lost.
        left = [n for n in ev.get("pay_cards", []) if isinstance(n, int)]
        if not sum(left):
            return None
        return t(lang, "mi.left_on_pay_cards", chips=count(lang, "chip", sum(left)),
                 piles=_params(ev, names, lang)["piles"])
    if kind == "went_out":
        return None  # `deal_over` says who went out
    if kind not in _NARRATED:
        return generic.describe(game_id, ev, names, lang)
    params = _params(ev, names, lang)
    key = kind
    if kind == "led" and ev.get("automatic"):
        key = "led_forced"
    elif kind == "passed" and ev.get("automatic"):
        key = "passed_auto"
    elif kind == "sequence_stopped":
        params["stop"] = _stop(ev, names, lang)
    elif kind in ("auction_won", "pay_card_won"):
        unit = "amount" if kind == "auction_won" else "chips"
        if isinstance(ev.get(unit), int):
            params[unit] = count(lang, "chip", ev[unit])
    elif kind == "deal_over":
        payments = ev.get("payments", [])
        winner = ev.get("seat")
        paid = [f"{player_name(s, names)} {number(p, signed=True, lang=lang)}"
                for s, p in enumerate(payments) if s != winner and p]
        if not paid or not isinstance(winner, int):
            key = "deal_over_alone"
        params["total"] = count(lang, "chip", payments[winner]
                                if isinstance(winner, int) and payments else 0)
        params["payments"] = " · ".join(paid)
    return t(lang, f"event.{game_id}.{key}", **params)


def describe_events(game_id: str, events: list[dict[str, Any]], names: list[str],
                    lang: str) -> list[str]:
    """The events of one move as lines, a lead and its forced plays folded into one.

    `Alice leads ♥ hearts: Alice 5♥ 6♥ · Bob 7♥ — 8♥ is not in play; Bob leads next`,
    then the pay cards won on the way; consecutive passes read as one line. A pass the
    engine made for a bidder who could not outbid says so: that player chose nothing.
    """
    lines: list[str] = []
    run: list[tuple[int, str]] = []
    lead: dict[str, Any] | None = None
    after: list[str] = []  # pay cards won during the run, told after it

    def flush(stop: dict[str, Any] | None = None) -> None:
        nonlocal lead, run, after
        if lead is not None:
            text = t(lang, "mi.run_forced" if lead.get("automatic") else "mi.run",
                     seat=player_name(lead["seat"], names), suit=_suit(lead["suit"], lang),
                     plays=_runs(run, names, lang))
            if stop is not None:
                text = t(lang, "mi.run_stop", run=text, stop=_stop(stop, names, lang))
            lines.append(text)
        lines.extend(after)
        lead, run, after = None, [], []

    passes: list[str] = []  # consecutive passes of one kind, told as one line
    forced = False  # those passes were the engine's: the bidder could not outbid

    def told_passes() -> None:
        nonlocal passes
        if passes:
            key = "passed_auto" if forced else "passed"
            lines.append(t(lang, f"event.michigan.{key}", seat=passes[0]) if len(passes) == 1
                         else t(lang, f"event.michigan.{key}_many", names=", ".join(passes)))
            passes = []

    for ev in events:
        kind = ev.get("type")
        if passes and (kind != "passed" or bool(ev.get("automatic")) != forced):
            told_passes()
        if kind == "led":
            flush()
            lead, run = ev, [(ev["seat"], ev["card"])]
        elif kind == "played" and lead is not None:
            run.append((ev["seat"], ev["card"]))
        elif kind == "pay_card_won" and lead is not None:
            after.append(describe(game_id, ev, names, lang) or "")
        elif kind == "sequence_stopped" and lead is not None:
            flush(ev)
        elif kind == "passed":
            forced = bool(ev.get("automatic"))
            passes.append(player_name(ev["seat"], names))
        else:
            flush()
            line = describe(game_id, ev, names, lang)
            if line:
                lines.append(line)
    told_passes()
    flush()
    return lines


def round_points(ev: dict[str, Any]) -> list[int] | None:
    """What each seat paid or collected when the deal ended (`deal_over`)."""
    payments = ev.get("payments")
    return list(payments) if ev.get("type") == "deal_over" and isinstance(payments, list) else None
