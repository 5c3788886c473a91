//! A newcomer's first session, scripted: the README's commands, in its order, on a repository
//! the test builds (pinned author and dates), through the `tether` a person installs. The
//! whole transcript is kept as a golden file (`tests/golden/newcomer-session.txt`;
//! `UPDATE_EXPECT=1` rewrites it), so that a change to what a person reads is seen in review
//! (issue 42: "a scripted newcomer session reads well end to end"). What differs between
//! runs (the folder, commits, times, sizes, pids) is replaced by a placeholder.

use std::path::Path;
use std::process::{Command, Stdio};

use tether_tests::{FixtureRepository, StopDaemonOnDrop};

const LIBRARY: &str = r#"
//- /shop/__init__.py
//- /shop/prices.py
def net(amount, rate):
    return amount * (1 - rate)

def gross(amount, tax):
    return amount * (1 + tax)

def total(items, rate, tax):
    return sum(gross(net(item, rate), tax) for item in items)
//- /shop/cart.py
from shop.prices import total

class Cart:
    def __init__(self):
        self.items = []

    def add(self, amount):
        self.items.append(amount)

    def checkout(self, rate=0.0, tax=0.2):
        return total(self.items, rate, tax)
//- /tests/test_cart.py
from shop.cart import Cart

def test_checkout():
    cart = Cart()
    cart.add(10)
    assert cart.checkout() == 12

def test_empty():
    assert Cart().checkout() == 0
"#;

/// Runs one command as the transcript shows it: `$ tether ARGS`, its output, its exit code
/// when not 0.
fn run(root: &Path, user_folder: &Path, arguments: &[&str], transcript: &mut String) {
    let output = Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
        .args(arguments)
        .current_dir(root)
        .env("XDG_CONFIG_HOME", user_folder)
        .env("GIT_AUTHOR_NAME", "Ada Newcomer")
        .env("GIT_AUTHOR_EMAIL", "ada@example.com")
        .env("GIT_COMMITTER_NAME", "Ada Newcomer")
        .env("GIT_COMMITTER_EMAIL", "ada@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-02T10:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-02T10:00:00Z")
        .stdin(Stdio::null())
        .output()
        .expect("tether runs");
    transcript.push_str(&format!("$ tether {}\n", arguments.join(" ")));
    transcript.push_str(&String::from_utf8_lossy(&output.stdout));
    transcript.push_str(&String::from_utf8_lossy(&output.stderr));
    let code = output.status.code().unwrap_or(-1);
    if code != 0 {
        transcript.push_str(&format!("(exit code {code})\n"));
    }
    transcript.push('\n');
}

/// The transcript with what differs between runs replaced: the folder, hex commit ids and
/// entry ids, decimals (seconds, sizes), pids and uptimes.
fn normalized(transcript: &str, root: &Path, user_folder: &Path) -> String {
    let text = transcript
        .replace(&root.display().to_string(), "<repo>")
        .replace(&user_folder.display().to_string(), "<user-config>");
    text.lines().map(|line| normalized_line(&without_times(line))).collect::<Vec<_>>().join("\n")
        + "\n"
}

/// RFC 3339 times (`2026-12-07T12:44:53Z`, when an entry was recorded) as `<time>`.
fn without_times(line: &str) -> String {
    let shape = "dddd-dd-ddTdd:dd:ddZ";
    let characters: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut at = 0;
    while at < characters.len() {
        let fits = characters.len() - at >= shape.len()
            && shape.chars().zip(&characters[at..]).all(|(expected, found)| match expected {
                'd' => found.is_ascii_digit(),
                other => other == *found,
            });
        if fits {
            out.push_str("<time>");
            at += shape.len();
        } else {
            out.push(characters[at]);
            at += 1;
        }
    }
    out
}

/// Waits (up to 30 s) until the daemon's graph holds HEAD and every file on disk: what a
/// person sees a moment after a save or a commit, whatever the machine's speed.
/// With `committed`, also until the daemon's freshness names no uncommitted file (the working
/// tree is committed then: git's word on it is what the answer says).
fn wait_until_the_graph_is_fresh(root: &Path, user_folder: &Path, committed: bool) {
    // The daemon's freshness is cached for 0.5 s: a status read sooner may be of the moment
    // before the write or commit just made.
    std::thread::sleep(std::time::Duration::from_millis(600));
    let started = std::time::Instant::now();
    loop {
        let output = Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
            .args(["status", "--json"])
            .current_dir(root)
            .env("XDG_CONFIG_HOME", user_folder)
            .output()
            .expect("tether runs");
        let status = String::from_utf8_lossy(&output.stdout);
        // No daemon runs (before the first query, after `stop`): nothing to wait for.
        if output.status.code() == Some(3) {
            return;
        }
        if status.contains("\"head_moved\": false")
            && status.contains("\"files_not_in_graph\": []")
            && status.contains("\"rebuilding\": false")
            && (!committed || status.contains("\"uncommitted_files\": []"))
        {
            return;
        }
        assert!(started.elapsed().as_secs() < 30, "the graph never caught up: {status}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

fn normalized_line(line: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let hex = word.len() >= 7
            && word.chars().all(|c| c.is_ascii_hexdigit())
            && word.chars().any(|c| c.is_ascii_digit());
        let decimal = word.contains('.')
            && word.split('.').count() == 2
            && word
                .split('.')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()));
        out.push_str(match (hex, decimal) {
            (true, _) => "<hex>",
            (_, true) => "<n.n>",
            _ => word.as_str(),
        });
        word.clear();
    };
    for character in line.chars() {
        if character.is_ascii_alphanumeric() || character == '.' {
            word.push(character);
        } else {
            flush(&mut word, &mut out);
            out.push(character);
        }
    }
    flush(&mut word, &mut out);
    // Numbers a session cannot pin: the daemon's pid and uptime.
    match out.find("(pid ") {
        Some(at) => format!(
            "{}(pid <pid>){}",
            &out[..at],
            out[at..].split_once(')').map_or("", |(_, rest)| rest)
        ),
        None => out,
    }
}

#[test]
fn a_newcomers_session_reads_well_end_to_end() {
    let repository = FixtureRepository::new(LIBRARY);
    let user = tempfile::tempdir().unwrap();
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let mut transcript = String::new();
    // The working tree is committed but between the edit and the record that commits it.
    let committed = std::cell::Cell::new(true);
    let mut tether = |arguments: &[&str]| {
        run(&root, user.path(), arguments, &mut transcript);
        // Each answer is of a graph that caught up with what the command before changed.
        wait_until_the_graph_is_fresh(&root, user.path(), committed.get());
    };
    tether(&["index"]);
    tether(&["blast", "shop.prices.net"]);
    tether(&["callers", "prices.gross", "--limit", "5"]);
    tether(&["blast", "--file", "shop/cart.py"]);
    tether(&["lookup", "total"]);
    tether(&["lookup", "totl"]);
    tether(&["callees", "shop.cart.Cart.checkout"]);
    std::fs::write(
        root.join("shop/prices.py"),
        "def net(amount, rate):\n    return amount * (1 - rate)\n\ndef gross(amount, tax):\n    # rounded to cents\n    return round(amount * (1 + tax), 2)\n\ndef total(items, rate, tax):\n    return sum(gross(net(item, rate), tax) for item in items)\n",
    )
    .unwrap();
    committed.set(false);
    wait_until_the_graph_is_fresh(&root, user.path(), false);
    tether(&["changes"]);
    tether(&[
        "record",
        "--type",
        "decision",
        "--title",
        "Round gross prices to cents",
        "--files",
        "shop/prices.py",
    ]);
    committed.set(true);
    wait_until_the_graph_is_fresh(&root, user.path(), true);
    tether(&["context", "shop.prices.gross"]);
    tether(&["search-memory", "cents"]);
    tether(&["config"]);
    tether(&["stop"]);
    let text = normalized(&transcript, &root, user.path());
    expect_test::expect_file!["../golden/newcomer-session.txt"].assert_eq(&text);
}

#[test]
fn normalizing_keeps_words_and_replaces_what_differs_between_runs() {
    assert_eq!(
        normalized_line("Indexed /x at 1a2b3c4d5e6f (main) in 0.2 s · net(pid 4242) shop.prices"),
        "Indexed /x at <hex> (main) in <n.n> s · net(pid <pid>) shop.prices"
    );
    assert_eq!(
        normalized_line("deadbeef cafe 10 test_cart.py:3"),
        "deadbeef cafe 10 test_cart.py:3"
    );
}
