"""Drives `tether mcp` with the official MCP Python SDK (`mcp` on PyPI): lists the tools, and
calls those that declare an outputSchema. The SDK itself validates each result's
structuredContent against the tool's outputSchema (`ClientSession.validate_tool_result`) and
raises when it does not conform. Prints one line per check; exits non-zero on any failure.

    python structured_content.py TETHER_BINARY REPOSITORY SYMBOL
"""

import asyncio
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(binary, repository, symbol):
    server = StdioServerParameters(command=binary, args=["mcp", "-C", repository])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            with_schema = sorted(name for name, tool in tools.items() if tool.output_schema)
            print("output schemas:", ", ".join(with_schema))
            for name in with_schema:
                arguments = {"symbol": symbol}
                if name in ("search_memory", "lookup"):
                    arguments = {"query": "compute"}
                if name in ("changes", "health"):
                    arguments = {}
                if name == "blast":
                    arguments["budget_tokens"] = 300  # a cut page must still conform
                result = await session.call_tool(name, arguments)
                if result.is_error:
                    raise SystemExit(f"{name}: tool error: {result.content}")
                structured = result.structured_content
                listed = next(key for key in ("items", "owners", "chain", "changed", "sections")
                              if key in structured)
                completeness = structured.get("completeness", {}).get("status", "-")
                print(f"{name}: valid structuredContent, {len(structured[listed])} {listed}, "
                      f"completeness {completeness}"
                      + (", truncated" if "truncated" in structured else ""))
            # One health section cut to a small budget: its findings are the list cut.
            result = await session.call_tool("health", {"kind": "dead_code", "budget_tokens": 300})
            if result.is_error:
                raise SystemExit(f"health: tool error: {result.content}")
            section = result.structured_content["sections"][0]
            print(f"health dead_code: valid structuredContent, {len(section['dead_code'])} of "
                  f"{section['total']} dead_code"
                  + (", truncated" if "truncated" in result.structured_content else ""))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
