"""Storage: the `Repository` interface and the implementation a DATABASE_URL names."""

from db.repository import Repository
from db.sqlite import SqliteRepository

__all__ = ["Repository", "SqliteRepository", "open_repository"]


def open_repository(url: str) -> Repository:
    """The repository `url` names, not yet opened: `await repo.open()` or `async with repo`.

    `sqlite:///relative.db`, `sqlite:////absolute/path.db` and `sqlite:///:memory:`, as
    in SQLAlchemy: the path is whatever follows the third slash. `postgresql://` and
    `postgres://` URLs (SQLAlchemy's `postgresql+asyncpg://` too) go to asyncpg as they are.
    """
    scheme, separator, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme == "sqlite" and separator:
        path = rest[1:] if rest.startswith("/") else ""
        if not path:
            raise ValueError("DATABASE_URL sqlite:/// needs a file name, e.g. sqlite:///tapis.db")
        if "?" in path:
            raise ValueError("DATABASE_URL: sqlite:/// takes no query parameters")
        return SqliteRepository(path)
    if separator and (scheme in ("postgres", "postgresql") or scheme.startswith("postgresql+")):
        # Imported here so that a SQLite deployment never loads asyncpg.
        from db.postgres import PostgresRepository

        return PostgresRepository(f"postgresql://{rest}")
    raise ValueError(
        f"DATABASE_URL scheme {scheme!r} is not supported;"
        " use sqlite:///tapis.db or postgresql://user:password@host/database"
    )
