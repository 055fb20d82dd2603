"""Which tables this process holds, and which of those have their state in memory.

One object per table, made on first need and kept while anything holds it (a lock, a
read, a resume): a second object of the same table would take moves the first never
sees. Their states are let go by idleness and, past a count, least recently used first,
so memory is bounded however many tables a process has seen."""

from collections import OrderedDict
from collections.abc import Callable

from bot.clock import Clock
from bot.settings import Settings
from bot.table import Table


class Held:
    def __init__(self, make: Callable[[int], Table], *, clock: Clock, settings: Settings,
                 forget: Callable[[int], None]) -> None:
        self._make = make
        self._clock = clock
        self._settings = settings
        self._forget = forget  # what else this process keeps of a table it lets go of
        # Every table this process holds something of (its state, a lock, a resume), and
        # those whose state is in memory, least recently used first (`_evict`).
        self.tables: dict[int, Table] = {}
        self.loaded: OrderedDict[int, Table] = OrderedDict()

    def table(self, table_id: int) -> Table:
        """The one object of this table here, made on first need (nothing is read yet)."""
        table = self.tables.get(table_id)
        if table is None:
            table = self.tables[table_id] = self._make(table_id)
        return table

    def in_memory(self, table_id: int) -> Table | None:
        """The table if its state is in memory here, else None (nothing is read)."""
        table = self.loaded.get(table_id)
        return table if table is not None and table.loaded else None

    def used(self, table: Table) -> None:
        """A table's state in memory was used: the last to be let go."""
        if self.tables.get(table.id) is table:  # else let go already: its holder finishes
            self.loaded.move_to_end(table.id)
            table.live.touched = self._clock.now()

    def read(self, table: Table) -> None:
        """A table's state was read into memory: kept, and the idle ones let go now."""
        if self.tables.get(table.id) is not table:
            return  # let go already: its holder finishes with it, nobody else sees it
        self.loaded[table.id] = table
        self.loaded.move_to_end(table.id)
        table.live.touched = self._clock.now()
        self._evict()

    def _evict(self) -> None:
        """Let go of tables nobody touched for `cache_idle_seconds`, and the least recently
        used past `cached_tables`. Idleness, not a count: however many tables are in play at
        once, none of them reloads on every move; the count only bounds memory. A table
        whose lock is held stays, however old: one object per table, one copy.

        `loaded` is kept in order of use, so the idle ones are at its front."""
        idle_since = self._clock.now() - self._settings.cache_idle_seconds
        for _ in range(len(self.loaded)):
            oldest = next(iter(self.loaded.values()))
            if len(self.loaded) <= self._settings.cached_tables and oldest.loaded \
                    and oldest.live.touched >= idle_since:
                break
            if oldest.busy():
                self.loaded.move_to_end(oldest.id)
                continue
            self.drop(oldest.id)

    def drop(self, table_id: int) -> None:
        """Forget the table here: the next event for it reads it from storage."""
        self.tables.pop(table_id, None)
        self.loaded.pop(table_id, None)
        self._forget(table_id)

    def let_go_if_unused(self, table: Table) -> None:
        # A table whose lock is held, or that is being read or resumed, stays: a second
        # object of it would take moves the first never sees.
        if not table.loaded and not table.busy() and table.resuming is None \
                and self.tables.get(table.id) is table:
            self.drop(table.id)

    def read_again(self, table_id: int) -> None:
        """The table's copy here may be behind what is stored: its next use reads it.

        The object stays. Replacing it would leave two copies whenever something already
        held the old one (a press between its first look and the lock, a change under the
        lock): that one's move, seats and timers would land on a copy nobody else reads,
        and the game would wait for good."""
        table = self.tables.get(table_id)
        if table is None:
            return
        table.stale = True
        table.resuming = table.resuming_seats = None
        table.deadline_resumed = None

    def naming(self, user_id: str) -> list[Table]:
        """The tables in memory here whose copy names the person, in id order."""
        return sorted((table for table in self.loaded.values()
                       if table.loaded and table.names_person(user_id)), key=lambda t: t.id)
