"""Discord REST calls counted for /metrics, through aiohttp's request tracing.

discord.py retries a 429 itself; tracing sees every attempt, so the rate limits it waited
out still count. The method label is the HTTP verb and the route with its ids and tokens
replaced (`POST /channels/:id/messages`): a label never carries a secret or grows without
bound.
"""

import re
from types import SimpleNamespace

import aiohttp

from bot import metrics

PLATFORM = "discord"
_WORD = re.compile(r"^@?[a-z][a-z_-]*$")  # "channels", "@me", "callback", "@original"


def route_of(method: str, path: str) -> str:
    parts = path.split("?")[0].strip("/").split("/")
    # Without the API prefix (/api/v10): the same route whatever the base.
    if parts[:1] == ["api"]:
        parts = parts[1:]
    if parts and re.fullmatch(r"v\d+", parts[0]):
        parts = parts[1:]
    route = "/".join(part if _WORD.fullmatch(part) else ":id" for part in parts)
    return f"{method} /{route}"


def trace_config() -> aiohttp.TraceConfig:
    trace = aiohttp.TraceConfig()

    async def on_end(session: aiohttp.ClientSession, context: SimpleNamespace,
                     params: aiohttp.TraceRequestEndParams) -> None:
        metrics.platform_call(PLATFORM, route_of(params.method, params.url.path),
                              params.response.status)

    async def on_error(session: aiohttp.ClientSession, context: SimpleNamespace,
                       params: aiohttp.TraceRequestExceptionParams) -> None:
        metrics.platform_call(PLATFORM, route_of(params.method, params.url.path), None)

    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_error)
    return trace
