#!/usr/bin/env python3
"""The churn check: does `tether health --kind churn` count each hotspot's commits as git does?

For each of the top hotspots (default 20) tether lists over the newest N commits that changed
`.py` or `.rs` files, git is asked on its own: of those N commits (`git log --no-merges -n N
-- '*.py' '*.rs'`), which changed the file, followed back through renames (`git log --follow`),
with at least one line changed once whitespace within lines is ignored (`-w`), by an
author that is not a bot (`[bot]` in the name or email). Prints each file's two counts and how
many agree.

    python3 benches/churn_counts.py REPO --tether PATH/TO/tether [--commits 500] [--top 20]

REPO is copied to a temporary folder (the original is not touched); tether runs there
without a daemon.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile


def git(work, *arguments):
    return subprocess.run(["git", "-C", work, *arguments], check=True, capture_output=True,
                          text=True, errors="replace").stdout


BOT_PATTERNS = ("[bot]", "dependabot", "renovate", "github-actions", "greenkeeper", "snyk-bot",
                "pre-commit-ci", "bors")


def looks_like_bot(author, email):
    """As tether's own check (crates/git/src/blame.rs, `looks_like_bot`)."""
    author, email = author.lower(), email.lower()
    return (any(pattern in author or pattern in email for pattern in BOT_PATTERNS)
            or author.endswith(" bot") or author.endswith("-bot")
            or email.startswith("bot@") or "+bot@" in email)


def git_count(work, path, window):
    """Commits of `window` that changed `path` (renames followed), whitespace ignored, no bots."""
    text = git(work, "log", "--no-merges", "--follow", "-w", "-p", "-U0",
               "--format=%x01%H%x1f%aN%x1f%aE", "--", path)
    count = 0
    for chunk in text.split("\x01")[1:]:
        header, _, diff = chunk.partition("\n")
        commit, author, email = header.split("\x1f")
        if commit in window and "\n@@ " in "\n" + diff and not looks_like_bot(author, email):
            count += 1
    return count


def follows_a_copy(work, path):
    """Whether `git log --follow` reaches the file's history through a copy (`C` status):
    git then counts the source's commits as the copy's; tether does not (the source still
    has its own history)."""
    text = git(work, "log", "--no-merges", "--follow", "--format=", "--name-status", "--", path)
    return any(line.startswith("C") for line in text.splitlines())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("--tether", required=True)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--top", type=int, default=20)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = f"{folder}/repo"
        shutil.copytree(arguments.repo, work, symlinks=True)
        output = subprocess.run(
            [arguments.tether, "health", "--kind", "churn", "--json", "--no-daemon",
             "--commits", str(arguments.commits), "--limit", str(arguments.top)],
            cwd=work, check=True, capture_output=True, text=True).stdout
        section = json.loads(output)["sections"][0]
        window = set(git(work, "log", "--no-merges", "--format=%H", "-n", str(arguments.commits),
                         "--", "*.py", "*.rs").split())
        agree, copies = 0, 0
        for hotspot in section.get("churn", []):
            expected = git_count(work, hotspot["path"], window)
            same = expected == hotspot["commits"]
            copy = not same and follows_a_copy(work, hotspot["path"])
            agree += same
            copies += copy
            mark = "same" if same else ("copy" if copy else "DIFF")
            print(f"{mark}  tether {hotspot['commits']:>4}  git {expected:>4}  {hotspot['path']}")
        listed = len(section.get("churn", []))
        print(f"{agree} of {listed} hotspots' commit counts agree with git; {copies} differ "
              f"because git --follow follows a copy (commits counted: "
              f"{section.get('commits_counted')}; note: {section.get('note')})")
        return 0 if agree + copies == listed else 1


if __name__ == "__main__":
    sys.exit(main())
