"""Drives `tether lsp` with pytest-lsp (PyPI), a client built on pygls that checks every
result against the capabilities of the client it impersonates (here VS Code's, as
captured by pytest-lsp). Run by the integration test `lsp_bridge`:

    TETHER_BINARY=... TETHER_REPOSITORY=... python -m pytest -o asyncio_mode=auto THIS_FILE

The repository is the integration tests' APP_FIXTURE: `app/core.py` defines `compute`
(line 1) and `report` (line 4, calling `compute`), `app/api.py`'s `handle` calls `compute`
on line 4, and `tests/test_core.py` tests `report`.
"""

import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPOSITORY = pathlib.Path(os.environ["TETHER_REPOSITORY"])
CORE = REPOSITORY / "app" / "core.py"
API = REPOSITORY / "app" / "api.py"
EXTRA = "\n\ndef extra(x):\n    return compute(x)\n"


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[os.environ["TETHER_BINARY"], "lsp", "-C", str(REPOSITORY)]
    )
)
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=REPOSITORY.as_uri(),
    )
    result = await lsp_client.initialize_session(params)
    assert result.server_info.name == "tether"
    yield
    await lsp_client.shutdown_session()


SAVED_COMPUTE = "2 call sites · blast 5 · 1 test"
SAVED_REPORT = "1 call site · blast 2 · 1 test"
EDITED_COMPUTE = "3 call sites · blast 6 · 1 test"


def open_document(client, path, text=None):
    text = path.read_text() if text is None else text
    item = types.TextDocumentItem(uri=path.as_uri(), language_id="python", version=1, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))


def at(path, line, character):
    return types.TextDocumentIdentifier(uri=path.as_uri()), types.Position(line, character)


async def lens_titles(client, path):
    document, _ = at(path, 0, 0)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=document))
    titles = []
    for lens in lenses:
        resolved = await client.code_lens_resolve_async(lens)
        titles.append((resolved.range.start.line, resolved.command.title))
    return titles


async def compute_item(client):
    document, position = at(API, 3, 12)
    params = types.CallHierarchyPrepareParams(text_document=document, position=position)
    items = await client.text_document_prepare_call_hierarchy_async(params)
    assert [item.detail for item in items] == ["app.core.compute"]
    return items[0]


async def test_call_hierarchy_goes_from_a_call_site_to_its_callers(client: LanguageClient):
    open_document(client, API)
    item = await compute_item(client)
    assert item.uri == CORE.as_uri()
    assert item.selection_range.start == types.Position(0, 4)
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(item=item)
    )
    callers = sorted((call.from_.detail, call.from_ranges[0].start.line) for call in incoming)
    assert callers == [("app.api.handle", 3), ("app.core.report", 4)], callers
    print("call hierarchy: app.core.compute <- app.api.handle, app.core.report")


async def test_lenses_and_hovers_count_an_unsaved_edit(client: LanguageClient):
    open_document(client, CORE)
    before = await lens_titles(client, CORE)
    assert before == [(0, SAVED_COMPUTE), (3, SAVED_REPORT)], before

    open_document(client, API)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=API.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=API.read_text() + EXTRA)],
        )
    )
    after = await lens_titles(client, CORE)
    assert after == [(0, EDITED_COMPUTE), (3, SAVED_REPORT)], after
    assert "extra" not in API.read_text(), "the edit stays unsaved"

    document, position = at(CORE, 0, 5)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=document, position=position)
    )
    assert hover.contents.value.startswith("**`app.core.compute`** · function · `app/core.py:1`")
    assert EDITED_COMPUTE in hover.contents.value, hover.contents.value

    references = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=document,
            position=position,
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    lines = sorted((pathlib.Path(reference.uri).name, reference.range.start.line) for reference in references)
    assert lines == [("api.py", 0), ("api.py", 3), ("api.py", 7), ("core.py", 4)], lines
    print("lenses, hover and references count the unsaved caller")


async def test_an_unknown_file_and_a_closed_buffer_answer_without_errors(client: LanguageClient):
    outside = types.TextDocumentIdentifier(uri="file:///nowhere/else.py")
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=outside))
    assert not lenses
    open_document(client, API, API.read_text() + EXTRA)
    assert (await lens_titles(client, CORE))[0] == (0, EDITED_COMPUTE)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=API.as_uri()))
    )
    assert (await lens_titles(client, CORE))[0] == (0, SAVED_COMPUTE)
    print("closing the buffer restores the file on disk")
