-- Drives `tether lsp` from Neovim's own LSP client (headless Neovim 0.7 or later, Debian's
-- package), as an editor user would: open a file, type a new caller without saving, read the
-- code lenses and the call hierarchy. Run by the integration test `lsp_bridge`:
--
--   TETHER_BINARY=... TETHER_REPOSITORY=... nvim --headless --clean -c "luafile THIS_FILE"
--
-- Prints one line per answer and `done`; a failure prints `error: ...` and exits with 1.

local binary = os.getenv("TETHER_BINARY")
local repository = os.getenv("TETHER_REPOSITORY")
local function say(line)
  io.stdout:write(line .. "\n")
end

local function check(condition, message)
  if not condition then
    say("error: " .. message)
    vim.cmd("cquit 1")
  end
end

local function main()
  local client_id = vim.lsp.start_client({
    name = "tether",
    cmd = { binary, "lsp", "-C", repository },
    root_dir = repository,
  })
  check(client_id, "the client did not start")
  vim.cmd("edit " .. repository .. "/app/api.py")
  local buffer = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buffer, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  check(vim.wait(30000, function() return client.initialized end, 50), "no initialize answer")

  local core = vim.uri_from_fname(repository .. "/app/core.py")
  local function lens_titles()
    local answer = client.request_sync("textDocument/codeLens", { textDocument = { uri = core } }, 30000, buffer)
    check(answer and answer.result, "codeLens: " .. vim.inspect(answer))
    local titles = {}
    for _, lens in ipairs(answer.result) do
      local resolved = client.request_sync("codeLens/resolve", lens, 30000, buffer)
      check(resolved and resolved.result, "codeLens/resolve: " .. vim.inspect(resolved))
      table.insert(titles, resolved.result.command.title)
    end
    return table.concat(titles, " | ")
  end

  say("saved: " .. lens_titles())

  -- `return compute(request)`: the cursor on `compute`.
  local position = { textDocument = { uri = vim.uri_from_bufnr(buffer) }, position = { line = 3, character = 12 } }
  local items = client.request_sync("textDocument/prepareCallHierarchy", position, 30000, buffer)
  check(items and items.result and items.result[1], "prepareCallHierarchy: " .. vim.inspect(items))
  say("item: " .. items.result[1].detail)

  -- Typed, not saved: Neovim sends the change before its next request.
  vim.api.nvim_buf_set_lines(buffer, -1, -1, false, { "", "", "def extra(x):", "    return compute(x)" })
  say("unsaved: " .. lens_titles())

  local incoming = client.request_sync("callHierarchy/incomingCalls", { item = items.result[1] }, 30000, buffer)
  check(incoming and incoming.result, "incomingCalls: " .. vim.inspect(incoming))
  local callers = {}
  for _, call in ipairs(incoming.result) do
    table.insert(callers, call.from.detail .. ":" .. call.fromRanges[1].start.line)
  end
  table.sort(callers)
  say("incoming: " .. table.concat(callers, ", "))

  client.stop()
  vim.wait(10000, function() return client.is_stopped() end, 50)
  say("done")
  vim.cmd("qa!")
end

local ok, failure = pcall(main)
if not ok then
  say("error: " .. tostring(failure))
  vim.cmd("cquit 1")
end
