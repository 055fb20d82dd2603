"""The fixed skills of the bots, per game and level, as (μ, σ) on openskill's scale.

Measured once by `bench/bot_ratings.py` (seeded bot-against-bot games; the method is in
docs/ratings.md) and written here by hand from its output: a bot is never rated again,
so the numbers a group sees do not depend on how often it plays against bots.
"""

# `python bench/bot_ratings.py --seconds 200` on 2026-11-27 (seeds from 0): 130, 164 and
# 95 games; bench/RESULTS.md has the table.
BOT_SKILLS: dict[str, dict[str, tuple[float, float]]] = {
    "ochs-esel": {"easy": (25.0, 3.11), "strong": (49.71, 3.07)},
    "nix-fur-ungut": {"easy": (25.0, 2.86), "strong": (46.01, 2.89)},
    "michigan": {"easy": (25.0, 3.09), "strong": (27.0, 3.03)},
}
