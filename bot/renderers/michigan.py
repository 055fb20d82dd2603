"""How a Michigan table reads in chat: the pay cards and their chips, the suit being
played upwards, and the auction of the extra hand while it runs.

One lead sets off many forced plays ("qui a la carte suivante doit la jouer"), each an
event: `describe_events` folds a lead and its forced plays into one line
(`Alice leads ♥: Alice 5♥ 6♥ · Bob 7♥ — …`), so the few narration lines the table keeps
are not all spent on a single suit. `describe`, one event at a time, stays silent on
forced plays: the table's sequence line shows them.
"""

from typing import Any

from bot.i18n import count, register, t
from bot.render import Button
from bot.renderers import generic
from bot.renderers.generic import player_name
from engine.core.types import Move
from engine.michigan import PAY_CARDS, RANKS, SUITS, Auction, Bid, Keep, Lead, Pass, Swap

MAX_BUTTONS = 24
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
BID_STEPS = (0, 1, 2, 5, 10)  # above the lowest allowed bid: a few useful amounts

register({
    "en": {
        "mi.rank.J": "J", "mi.rank.Q": "Q", "mi.rank.K": "K", "mi.rank.A": "A",
        "mi.suit.S": "spades", "mi.suit.H": "hearts", "mi.suit.D": "diamonds",
        "mi.suit.C": "clubs",
        "mi.phase.decision": "dealer's decision", "mi.phase.auction": "auction of the extra hand",
        "mi.phase.play": "play", "mi.phase.over": "game over",
        "mi.header": "Deal {deal}/{deals} · dealer {dealer} · {phase}",
        "mi.pay": "Pay cards (chips): {piles}",
        "mi.decided.swap": "The dealer took the extra hand unseen.",
        "mi.decided.keep": "The dealer kept their hand; the extra hand is out.",
        "mi.auction_high": "Auction: high bid {bid} by {name} (the next bidder may go up to "
                           "{max}, their chips)",
        "mi.auction_none": "Auction: no bid yet (the next bidder may go up to {max}, their "
                           "chips)",
        "mi.auction_passed": "Passed: {names}",
        "mi.auction_sold": "The extra hand went to {name} for {bid}.",
        "mi.auction_unsold": "Nobody bought the extra hand: it is out.",
        "mi.sequence": "{suit} run: {plays}",
        "mi.no_sequence": "Waiting for {name} to lead.",
        "mi.seat": "{marker}{name}: {cards} · {chips}{dealer}{played}",
        "mi.seat_dealer": " · dealer",
        "mi.seat_played": " · played {cards}",
        "mi.hand_pay": "Pay cards in your hand: {cards}",
        "mi.hand_chips": "You have {chips}.",
        "mi.hand_decide": "You deal: swap your hand for the extra hand (unseen), keep it, or "
                          "auction the extra hand.",
        "mi.hand_bid": "Bid {min}–{max} for the extra hand (at most your chips), or pass (a "
                       "pass is final).",
        "mi.hand_lead": "You lead: pick a suit; your lowest card of it is played, then the "
                        "forced cards follow.",
        "mi.btn.swap": "Swap hands", "mi.btn.keep": "Keep", "mi.btn.auction": "Auction",
        "mi.btn.bid": "Bid {amount}",
        "mi.stop.ace": "the ace ends it; {seat} leads next",
        "mi.stop.no_next_card": "{next} is not in play; {seat} leads next",
        "mi.stop.already_played": "{next} was played earlier this deal; {seat} leads next",
        "mi.left_on_pay_cards": "The game is over with {chips} still on the pay cards "
                                "({piles}): they count for nobody.",
        "mi.run": "{seat} leads {suit}: {plays}",
        "mi.run_forced": "{seat} must lead {suit}: {plays}",
        "mi.run_stop": "{run} — {stop}",
        "event.michigan.swapped": "{seat} (dealer) swaps for the extra hand unseen",
        "event.michigan.kept": "{seat} (dealer) keeps their hand",
        "event.michigan.auction_opened": "{seat} (dealer) auctions the extra hand",
        "event.michigan.bid": "{seat} bids {amount}",
        "event.michigan.passed": "{seat} passes",
        "event.michigan.passed_many": "{names} pass",
        "event.michigan.auction_no_bid": "Nobody bids: the extra hand stays out of play",
        "event.michigan.auction_won": "{seat} buys the extra hand for {amount}, paid "
                                      "to {dealer}",
        "event.michigan.led": "{seat} leads {card}",
        "event.michigan.led_forced": "{seat} must lead {card}",
        "event.michigan.played": "{seat} plays {card}",
        "event.michigan.pay_card_won": "💰 {seat} plays {card} and wins its {chips}",
        "event.michigan.sequence_stopped": "{suit} stops at {card}: {stop}",
        "event.michigan.deal_over": "Deal {deal} is over: {seat} went out and collects "
                                    "{total} ({payments})",
        "event.michigan.deal_over_alone": "Deal {deal} is over: {seat} went out",
        "event.michigan.deal_started": "Deal {deal}: {dealer} deals · pay cards {piles}",
    },
    "fr": {
        "mi.rank.J": "V", "mi.rank.Q": "D", "mi.rank.K": "R", "mi.rank.A": "A",
        "mi.suit.S": "pique", "mi.suit.H": "cœur", "mi.suit.D": "carreau",
        "mi.suit.C": "trèfle",
        "mi.phase.decision": "décision du donneur",
        "mi.phase.auction": "enchères sur la main supplémentaire",
        "mi.phase.play": "jeu", "mi.phase.over": "partie finie",
        "mi.header": "Donne {deal}/{deals} · donneur {dealer} · {phase}",
        "mi.pay": "Cartes payantes (jetons) : {piles}",
        "mi.decided.swap": "Le donneur a pris la main supplémentaire sans la voir.",
        "mi.decided.keep": "Le donneur a gardé sa main ; la main supplémentaire est écartée.",
        "mi.auction_high": "Enchères : {bid} par {name} (le suivant peut miser jusqu'à {max}, "
                           "ses jetons)",
        "mi.auction_none": "Enchères : aucune mise pour l'instant (le suivant peut miser "
                           "jusqu'à {max}, ses jetons)",
        "mi.auction_passed": "Ont passé : {names}",
        "mi.auction_sold": "La main supplémentaire est allée à {name} pour {bid}.",
        "mi.auction_unsold": "Personne n'a acheté la main supplémentaire : elle est écartée.",
        "mi.sequence": "Suite à {suit} : {plays}",
        "mi.no_sequence": "On attend que {name} entame.",
        "mi.seat": "{marker}{name} : {cards} · {chips}{dealer}{played}",
        "mi.seat_dealer": " · donneur",
        "mi.seat_played": " · a joué {cards}",
        "mi.hand_pay": "Cartes payantes dans votre main : {cards}",
        "mi.hand_chips": "Vous avez {chips}.",
        "mi.hand_decide": "Vous donnez : échangez votre main contre la main supplémentaire "
                          "(sans la voir), gardez-la, ou mettez la main supplémentaire aux "
                          "enchères.",
        "mi.hand_bid": "Misez de {min} à {max} pour la main supplémentaire (au plus vos "
                       "jetons), ou passez (c'est "
                       "définitif).",
        "mi.hand_lead": "À vous d'entamer : choisissez une couleur ; votre plus petite carte "
                        "de cette couleur est jouée, puis les cartes forcées suivent.",
        "mi.btn.swap": "Échanger", "mi.btn.keep": "Garder", "mi.btn.auction": "Enchères",
        "mi.btn.bid": "Miser {amount}",
        "mi.stop.ace": "l'as la termine ; {seat} entame ensuite",
        "mi.stop.no_next_card": "{next} n'est pas en jeu ; {seat} entame ensuite",
        "mi.stop.already_played": "{next} a déjà été joué dans cette donne ; {seat} entame "
                                  "ensuite",
        "mi.left_on_pay_cards": "La partie se termine avec {chips} encore sur les cartes "
                                "payantes ({piles}) : ils ne comptent pour personne.",
        "mi.run": "{seat} entame à {suit} : {plays}",
        "mi.run_forced": "{seat} doit entamer à {suit} : {plays}",
        "mi.run_stop": "{run} — {stop}",
        "event.michigan.swapped": "{seat} (donneur) prend la main supplémentaire sans la voir",
        "event.michigan.kept": "{seat} (donneur) garde sa main",
        "event.michigan.auction_opened": "{seat} (donneur) met la main supplémentaire aux "
                                         "enchères",
        "event.michigan.bid": "{seat} mise {amount}",
        "event.michigan.passed": "{seat} passe",
        "event.michigan.passed_many": "{names} passent",
        "event.michigan.auction_no_bid": "Personne ne mise : la main supplémentaire reste "
                                         "hors jeu",
        "event.michigan.auction_won": "{seat} achète la main supplémentaire à {dealer} pour "
                                      "{amount}",
        "event.michigan.led": "{seat} entame avec {card}",
        "event.michigan.led_forced": "{seat} doit entamer avec {card}",
        "event.michigan.played": "{seat} joue {card}",
        "event.michigan.pay_card_won": "💰 {seat} joue {card} et gagne ses {chips}",
        "event.michigan.sequence_stopped": "{suit} s'arrête à {card} : {stop}",
        "event.michigan.deal_over": "La donne {deal} est finie : {seat} est sorti et reçoit "
                                    "{total} ({payments})",
        "event.michigan.deal_over_alone": "La donne {deal} est finie : {seat} est sorti",
        "event.michigan.deal_started": "Donne {deal} : {dealer} donne · cartes payantes "
                                       "{piles}",
    },
})


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


def _piles(pay_cards: list[list[Any]], lang: str) -> str:
    return " · ".join(f"{card_text(card, lang)} {chips}" for card, chips in pay_cards)


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
    held = [f"{card_text(c, lang)} ({pay[c]})" for c in hand if c in pay]
    if held:
        lines.append(t(lang, "mi.hand_pay", cards=", ".join(held)))
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
    elif kind == "sequence_stopped":
        params["stop"] = _stop(ev, names, lang)
    elif kind in ("auction_won", "pay_card_won"):
        unit = "amount" if kind == "auction_won" else "chips"
        if isinstance(ev.get(unit), int):
            params[unit] = count(lang, "chip", ev[unit])
    elif kind == "deal_over":
        payments = ev.get("payments", [])
        winner = ev.get("seat")
        paid = [f"{player_name(s, names)} {p:+d}".replace("-", "−")
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
    then the pay cards won on the way; consecutive passes read as one line.
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

    passes: list[str] = []
    for ev in events:
        kind = ev.get("type")
        if kind != "passed" and passes:
            lines.append(t(lang, "event.michigan.passed", seat=passes[0]) if len(passes) == 1
                         else t(lang, "event.michigan.passed_many", names=", ".join(passes)))
            passes = []
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
            passes.append(player_name(ev["seat"], names))
        else:
            flush()
            line = describe(game_id, ev, names, lang)
            if line:
                lines.append(line)
    if passes:
        lines.append(t(lang, "event.michigan.passed", seat=passes[0]) if len(passes) == 1
                     else t(lang, "event.michigan.passed_many", names=", ".join(passes)))
    flush()
    return lines


def round_points(ev: dict[str, Any]) -> list[int] | None:
    """What each seat paid or collected when the deal ended (`deal_over`)."""
    payments = ev.get("payments")
    return list(payments) if ev.get("type") == "deal_over" and isinstance(payments, list) else None


ROUND_END_EVENTS = ("deal_over",)  # Michigan's "rounds" are deals
