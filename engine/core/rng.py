"""Seeded randomness without RNG state in the snapshot.

Every random draw is taken from a fresh `random.Random` seeded with the table seed plus
a label naming what is drawn (`"deal", round`). String seeds go through SHA-512 in
CPython, so shuffles are the same on every machine and Python version, and a snapshot
never needs to carry generator state (which `view` must not leak anyway).
"""

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: int, *labels: object) -> random.Random:
    return random.Random("/".join([str(seed), *map(str, labels)]))


def shuffled(items: Sequence[T], seed: int, *labels: object) -> list[T]:
    out = list(items)
    rng_for(seed, *labels).shuffle(out)
    return out
