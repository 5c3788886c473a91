"""Drives `tether mcp` with the official MCP Python SDK (`mcp` on PyPI) as an agent would:
pages through a large blast answer by following the cursor each page's text names, and
checks that every item is seen exactly once, that every page (its text and its
structuredContent) fits its budget, and that the text's cursor and structuredContent's
`next_cursor` agree. Then calls every read-only tool at the smallest and a small budget and
checks each answer fits. Prints one line per check; exits non-zero on any failure.

    python paging.py TETHER_BINARY REPOSITORY SYMBOL
"""

import asyncio
import json
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CHARACTERS_PER_TOKEN = 4
CURSOR = re.compile(r'cursor "(o:\d+)"')
ITEM_ID = re.compile(r" · id ([0-9a-f]{16})$")


def text_of(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def check_fits(name, budget, result):
    text = text_of(result)
    if len(text) > budget * CHARACTERS_PER_TOKEN:
        raise SystemExit(f"{name} at {budget}: text of {len(text)} characters:\n{text}")
    if result.structured_content is not None:
        structured = json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
        if len(structured) > budget * CHARACTERS_PER_TOKEN:
            raise SystemExit(f"{name} at {budget}: structuredContent of {len(structured)} characters")
    return text


async def page_through_blast(session, symbol, budget):
    seen, pages, cursor, total = [], 0, None, None
    while True:
        arguments = {"symbol": symbol, "budget_tokens": budget, "limit": 50}
        if cursor:
            arguments["cursor"] = cursor
        result = await session.call_tool("blast", arguments)
        if result.is_error:
            raise SystemExit(f"blast page {pages}: tool error: {text_of(result)}")
        text = check_fits("blast", budget, result)
        pages += 1
        items = [match.group(1) for line in text.splitlines() if (match := ITEM_ID.search(line))]
        if not items:
            raise SystemExit(f"page {pages} shows no item:\n{text}")
        seen.extend(items)
        total = result.structured_content["total"]
        cursors = CURSOR.findall(text)
        if len(set(cursors)) > 1:
            raise SystemExit(f"page {pages} names several cursors {cursors}:\n{text}")
        structured_cursor = result.structured_content.get("next_cursor")
        if (cursors[0] if cursors else None) != structured_cursor:
            raise SystemExit(f"page {pages}: text cursor {cursors} but next_cursor {structured_cursor}")
        if not cursors:
            break
        cursor = cursors[0]
    if len(seen) != len(set(seen)):
        raise SystemExit(f"items seen twice: {len(seen)} shown, {len(set(seen))} distinct")
    if len(seen) != total:
        raise SystemExit(f"{len(seen)} items seen of {total}")
    print(f"blast paged at {budget}: {pages} pages, {len(seen)} items of {total}, each once")


async def main(binary, repository, symbol):
    server = StdioServerParameters(command=binary, args=["mcp", "-C", repository])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for budget in (300, 1000):
                await page_through_blast(session, symbol, budget)
            calls = {
                "blast": {"symbol": symbol},
                "callers": {"symbol": symbol},
                "callees": {"symbol": "app.core.report"},
                "imports": {"symbol": "app.core"},
                "lookup": {"query": "caller"},
                "changes": {"scope": "all"},
                "ownership": {"path": "app/many.py"},
                "context": {"symbol": symbol},
                "search_memory": {"query": "compute"},
                "health": {"kind": "dead_code"},
            }
            for budget in (300, 500):
                for name, arguments in calls.items():
                    for format in ("text", "json"):
                        result = await session.call_tool(
                            name, {**arguments, "budget_tokens": budget, "format": format})
                        if result.is_error:
                            raise SystemExit(f"{name}: tool error: {text_of(result)}")
                        check_fits(name, budget, result)
                print(f"every tool fits budget_tokens {budget}")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
