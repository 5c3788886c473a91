"""Drives `tether mcp --subject SUBJECT` with the official MCP Python SDK (`mcp` on PyPI):
records a trace without a subject (the session's is taken), is refused one naming another
subject, retries under the same operation id (the first id again), and recalls the trace as
text and as JSON. Prints one line per check; exits non-zero on any failure.

    python traces.py TETHER_BINARY REPOSITORY SUBJECT
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def trace(**fields):
    base = {
        "situation": "test_report fails on CI",
        "rationale": "compute may have changed",
        "action": "ran pytest tests/test_core.py",
        "outcome": "red: 3 != 4",
        "observed_at": "2026-12-07T09:00:00Z",
        "artifacts": ["tests/test_core.py"],
        "operation_id": "op-sdk-1",
    }
    base.update(fields)
    return base


async def main(binary, repository, subject):
    server = StdioServerParameters(command=binary, args=["mcp", "-C", repository, "--subject", subject])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            print("record_trace read only:", tools["record_trace"].annotations.read_only_hint)
            print("recall read only:", tools["recall"].annotations.read_only_hint)

            first = await session.call_tool("record_trace", {"traces": [trace()], "format": "json"})
            if first.is_error:
                raise SystemExit(f"record_trace: {first.content}")
            recorded = json.loads(first.content[0].text)["traces"][0]
            print("recorded:", recorded["id"], "subject", recorded["subject"])

            other = await session.call_tool(
                "record_trace", {"traces": [trace(subject="elsewhere@linux", operation_id="op-2")]})
            print("other subject refused:", other.is_error, other.content[0].text)

            again = await session.call_tool("record_trace", {"traces": [trace()], "format": "json"})
            replayed = json.loads(again.content[0].text)
            print("replayed:", replayed["replayed"], replayed["traces"][0]["id"])

            recall = await session.call_tool("recall", {"anchors": [subject]})
            print("recall text:", recall.content[0].text.splitlines()[0])
            as_json = await session.call_tool("recall", {"anchors": [subject], "format": "json"})
            structured = json.loads(as_json.content[0].text)
            print("recall json:", len(structured["traces"]), structured["completeness"])
            small = await session.call_tool("recall", {"query": "pytest", "budget_tokens": 300})
            print("recall at 300 tokens:", small.is_error, len(small.content[0].text) <= 1200)
            missing = await session.call_tool("recall", {})
            print("recall without query or anchors:", missing.is_error)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
