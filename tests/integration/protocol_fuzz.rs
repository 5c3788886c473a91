//! Random and structured frames against a live daemon, bounded (a few seconds in CI; the
//! soak script `scripts/soak.sh` runs longer): every frame gets at most one answer, every
//! answer is a JSON-RPC 2.0 response, none is an internal error, and afterwards the daemon
//! still answers correctly. The frames come from a fixed seed, so a failure reproduces.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use tether_protocol::{json, Value};
use tether_tests::{FixtureRepository, APP_FIXTURE};

use crate::daemon::{caller_names, RunningDaemon};

struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const METHODS: &[&str] = &[
    "status",
    "lookup",
    "callers",
    "callees",
    "imports",
    "blast",
    "ownership",
    "changes",
    "context",
    "search_memory",
    "record",
    "nope",
    "",
    "shutdown ",
];
const KEYS: &[&str] = &[
    "symbol",
    "path",
    "file",
    "depth",
    "limit",
    "cursor",
    "range",
    "base",
    "scope",
    "query",
    "folder",
    "type",
    "title",
    "files",
    "commit",
    "include_whitespace",
    "exclude_authors",
    "supersedes",
    "id",
];

fn random_value(random: &mut Random, depth: u32) -> Value {
    let strings = [
        "app.core.compute",
        "compute",
        "app/core.py",
        "app/core.py:2",
        "../../etc/passwd",
        "/dev/zero",
        "--output=/tmp/tether-fuzz-written",
        "HEAD..HEAD",
        "-p",
        "o:18446744073709551615",
        "o:-1",
        "\u{0}",
        "é\u{202e}",
        "*",
        "",
    ];
    match random.below(if depth > 2 { 5 } else { 8 }) {
        0 => Value::Null,
        1 => json!(random.below(2) == 0),
        2 => json!(random.next() as i64),
        3 => json!(random.below(10)),
        4 => json!(random.pick(&strings)),
        5 => json!(f64::from(random.below(1000) as u32) / 7.0),
        6 => Value::Array((0..random.below(4)).map(|_| random_value(random, depth + 1)).collect()),
        _ => Value::Object(
            (0..random.below(4))
                .map(|_| (random.pick(KEYS).to_string(), random_value(random, depth + 1)))
                .collect(),
        ),
    }
}

fn random_frame(random: &mut Random) -> Vec<u8> {
    match random.below(10) {
        // Bytes of any kind (but the line's end).
        0 => (0..random.below(200))
            .map(|_| (random.next() % 256) as u8)
            .filter(|byte| *byte != b'\n')
            .collect(),
        // Truncated or mangled JSON.
        1 => {
            let text = json!({ "jsonrpc": "2.0", "id": 1, "method": "callers", "params": { "symbol": "compute" } }).to_string();
            text.as_bytes()[..random.below(text.len())].to_vec()
        }
        _ => {
            let mut request = serde_json::Map::new();
            if random.below(8) != 0 {
                request.insert("jsonrpc".into(), json!("2.0"));
            }
            // Mostly requests with an id; sometimes notifications or odd ids.
            match random.below(10) {
                0 => {}
                1 => {
                    request.insert("id".into(), random_value(random, 3));
                }
                _ => {
                    request.insert("id".into(), json!(random.next() >> 1));
                }
            }
            request.insert("method".into(), json!(random.pick(METHODS).trim()));
            let params: serde_json::Map<String, Value> = (0..random.below(5))
                .map(|_| (random.pick(KEYS).to_string(), random_value(random, 0)))
                .collect();
            request.insert(
                "params".into(),
                if random.below(10) == 0 { random_value(random, 0) } else { Value::Object(params) },
            );
            Value::Object(request).to_string().into_bytes()
        }
    }
}

#[test]
fn random_frames_never_break_the_daemon() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    let mut random = Random(0x7e7e_f022);
    let started = Instant::now();
    let mut frames = 0;
    while frames < 3_000 && started.elapsed() < Duration::from_secs(8) {
        let mut frame = random_frame(&mut random);
        if frame.windows(8).any(|window| window == b"shutdown") {
            continue;
        }
        frame.push(b'\n');
        client.writer.write_all(&frame).unwrap();
        let sentinel = format!("sentinel-{frames}");
        client
            .writer
            .write_all(
                format!("{}\n", json!({ "jsonrpc": "2.0", "id": sentinel, "method": "status" }))
                    .as_bytes(),
            )
            .unwrap();
        let mut answers = 0;
        loop {
            let mut line = String::new();
            client.reader.read_line(&mut line).unwrap();
            let answer: Value = serde_json::from_str(&line).unwrap_or_else(|error| {
                panic!("not JSON ({error}) after {:?}: {line:?}", String::from_utf8_lossy(&frame))
            });
            assert_eq!(answer["jsonrpc"], "2.0", "{line}");
            assert!(answer.get("result").is_some() != answer.get("error").is_some(), "{line}");
            if let Some(code) = answer["error"]["code"].as_i64() {
                assert_ne!(
                    code,
                    -32603,
                    "an internal error for {:?}: {line}",
                    String::from_utf8_lossy(&frame)
                );
            }
            if answer["id"] == sentinel.as_str() {
                break;
            }
            answers += 1;
        }
        assert!(
            answers <= 1,
            "one frame got {answers} answers: {:?}",
            String::from_utf8_lossy(&frame)
        );
        frames += 1;
    }
    assert!(frames >= 200, "only {frames} frames in the time allowed");
    assert!(!std::path::Path::new("/tmp/tether-fuzz-written").exists());
    let mut fresh = daemon.client();
    assert_eq!(
        caller_names(&fresh.call("callers", json!({ "symbol": "app.core.compute" }))),
        ["app.api.handle", "app.core.report"]
    );
}
