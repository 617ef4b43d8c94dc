#!/usr/bin/env python3
"""Randomized hostile-operations harness for the index writer's data-safety rules.

Usage:
    python3 scripts/hostile.py [--cycles N] [--seed S] [--bin DIR] [--keep]
    bash scripts/hostile.sh [same arguments]   # builds the tools first

Drives invert-index, invert-check and invert-dump against one index directory
in a temporary directory and, after every step, checks that the index verifies
and holds exactly the stored ids of its last successful commit. Each cycle
picks one operation at random:
  append    an --append (sometimes --overwrite, or no mode flag, which must be
            refused) run over fresh ids, SIGKILLed at a random moment or left
            to finish: the index then holds the old ids, or exactly the new
            expected set (old + new; new for --overwrite), and a new commit
            generation appears iff it holds the new set;
  writer2   a second writer started while the first runs: it is refused with
            "locked by another writer" (unless the first had finished), the
            first is unaffected;
  corrupt   the newest commit point gets a flipped byte, is truncated or is
            replaced by garbage: a plain --append, invert-check and invert-dump
            fail naming segments_N and change no file; then the original bytes
            come back, or --recover --append continues from the newest older
            commit (its ids + the new ones) and keeps the damaged file;
  foreign   files that are not invert's (__init__.py, segments_2024, _zz.doc
            with random bytes ...) are dropped in: they must survive every
            later operation byte for byte and invert-check lists them as not
            part of the index;
  update    an --append --update-key id run (tiered merges with a small RAM
            buffer, or none; sometimes --force-merge N) whose input re-uses
            ids of the index (some several times) besides fresh ones,
            SIGKILLed at a random moment or left to finish: the index then
            holds the old ids, or old + new with every id exactly once;
  delete    a --delete-ids run (sometimes with --force-merge N) over a random
            subset of the index's ids plus ids it never held, killed or
            finished likewise: the old ids, or the old ones minus those;
  verify    invert-check passes and invert-dump --ids equals the model.
The seed is printed first; the same seed replays the same operations, inputs
and kill delays (where a kill lands still depends on the machine's timing).
On a violation the harness prints the cycle, the operation, what it ran, the
directory listing and the kept directory's path, and exits 1. The last line
is "hostile: N passed, M failed". --bin is the tools' build directory (the
one holding index/invert-index, or the binaries themselves); by default
build/release/tools, then build/h-hostile/tools. Python 3 standard library
only. Default: 200 cycles (a few minutes on 2 cores).
"""

import argparse
import collections
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = ("invert-index", "invert-check", "invert-dump")
LOCK_MESSAGE = "locked by another writer"
TOOL_TIMEOUT = 300  # seconds; a tool that runs longer counts as hung
COMMIT_RE = re.compile(r"^segments_([1-9][0-9]{0,17})$")
# Files that are not invert's, dropped in by the "foreign" operation. A file
# named like a commit point (segments_<N>) is foreign to invert only if its
# bytes say so (codec/commit_format.h: at least 4 bytes, no codec header
# magic); shorter ones are taken for truncated commit points, so commit-like
# names get at least 4 bytes here.
FOREIGN_NAMES = ("__init__.py", "_config.yml", "notes.tmp", "segments_2024", "_x.y",
                 "pending_notes", "_zz.doc", "segments_x", "segments_0042", "_Z.tim",
                 "_1.txt", "write.lock.old", ".DS_Store", "__pycache__/mod.cpython-311.pyc")
HEADER_MAGIC = b"INVH"
# How the corrupt operation damages the newest commit point. "garbage" and
# "zeroed" keep no header: invert must still take the file for a damaged
# commit point (it is the newest one), never for a foreign file.
DAMAGE_KINDS = ("flip", "truncate", "zeroed", "garbage after header", "garbage", "unreadable")


class Violation(Exception):
    pass


def sha256(path):
    """The file's SHA-256, or "unreadable" (a commit point made unreadable
    on purpose stays so)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except PermissionError:
        return "unreadable"
    return h.hexdigest()


def find_tools(bin_dir):
    candidates = [bin_dir] if bin_dir else [os.path.join(REPO, "build", "release", "tools"),
                                            os.path.join(REPO, "build", "h-hostile", "tools")]
    for base in candidates:
        found = {}
        for tool in TOOLS:
            sub = tool.split("-", 1)[1]
            for path in (os.path.join(base, sub, tool), os.path.join(base, tool)):
                if os.path.isfile(path) and os.access(path, os.X_OK):
                    found[tool] = path
                    break
        if len(found) == len(TOOLS):
            return found
    sys.exit("hostile: the tools (%s) are not under %s; build them (scripts/hostile.sh) or "
             "pass --bin" % (", ".join(TOOLS), " or ".join(candidates)))


class Harness:
    def __init__(self, seed, tools, keep, damage_kinds):
        self.seed = seed
        self.damage_kinds = damage_kinds
        self.rng = random.Random(seed)
        self.tools = tools
        self.keep = keep
        self.root = tempfile.mkdtemp(prefix="invert-hostile-")
        self.dir = os.path.join(self.root, "index")
        self.counts = collections.Counter()
        self.kills = collections.Counter()  # "kill moment: outcome" for append/overwrite runs
        self.cycle = 0
        self.op = "setup"
        self.log = []  # what the current cycle did, printed on a violation
        # The model.
        self.ids = frozenset()  # ids of the last successful commit
        self.gen = 0  # its generation
        self.history = {}  # generation -> ids, for commits still on disk
        self.damaged = set()  # generations left damaged on purpose (after --recover)
        self.survivors = {}  # relative path -> sha256: must survive byte for byte
        self.foreign = set()  # top-level names invert-check must list as not in the index
        self.not_in_index = set()  # what the last invert-check listed so
        self.next_doc = 0
        self.seconds_per_byte = 2e-8  # learned from finished runs
        self.startup_seconds = 0.03
        self.paragraphs = self._make_paragraphs()

    # ---- inputs ----

    def _make_paragraphs(self):
        r = random.Random(self.seed ^ 0x5EED)
        letters = "abcdefghijklmnopqrstuvwxyz"
        vocab = ["".join(r.choice(letters) for _ in range(r.randint(2, 10))) for _ in range(4000)]
        vocab += ["über", "naïve", "東京", "données", "αβγ"]
        return [" ".join(r.choice(vocab) for _ in range(350)) for _ in range(120)]

    def _body(self, big):
        if big:
            return " ".join(self.rng.choice(self.paragraphs)
                            for _ in range(self.rng.randint(4, 24)))
        p = self.rng.choice(self.paragraphs)
        start = self.rng.randrange(0, len(p) // 2)
        return p[start:start + self.rng.randint(1, 600)]

    def make_input(self, tag, size=None):
        """Writes a JSON-lines file of fresh unique ids. Returns (path, ids, bytes)."""
        shape = size or self.rng.choices(["small", "medium", "big"], [70, 20, 10])[0]
        n = {"small": lambda: self.rng.randint(1, 200),
             "medium": lambda: self.rng.randint(200, 2000),
             "big": lambda: self.rng.randint(50, 400)}[shape]()
        ids = []
        lines = []
        for _ in range(n):
            doc_id = "d%07d-c%d" % (self.next_doc, self.cycle)
            self.next_doc += 1
            ids.append(doc_id)
            title = " ".join(self.rng.choice(self.paragraphs)[:40].split()[:3])
            lines.append(json.dumps({"id": doc_id, "title": title,
                                     "body": self._body(shape == "big")}, ensure_ascii=False))
        path = os.path.join(self.root, "in-%d-%s.jsonl" % (self.cycle, tag))
        data = ("\n".join(lines) + "\n").encode()
        with open(path, "wb") as f:
            f.write(data)
        self.note("input %s: %d docs, %d bytes (%s)" % (os.path.basename(path), n, len(data),
                                                       shape))
        return path, frozenset(ids), len(data)

    def make_input_with_ids(self, tag, ids):
        """A JSON-lines file with one small document per entry of `ids` (in
        that order; repeats allowed). Returns (path, bytes)."""
        lines = []
        for doc_id in ids:
            title = " ".join(self.rng.choice(self.paragraphs)[:40].split()[:3])
            lines.append(json.dumps({"id": doc_id, "title": title,
                                     "body": self._body(self.rng.random() < 0.05)},
                                    ensure_ascii=False))
        path = os.path.join(self.root, "in-%d-%s.jsonl" % (self.cycle, tag))
        data = ("\n".join(lines) + "\n").encode()
        with open(path, "wb") as f:
            f.write(data)
        self.note("input %s: %d docs (%d distinct ids), %d bytes"
                  % (os.path.basename(path), len(ids), len(set(ids)), len(data)))
        return path, len(data)

    def estimate_seconds(self, nbytes):
        return self.startup_seconds + nbytes * self.seconds_per_byte

    def learn(self, nbytes, seconds):
        """Updates the run-time estimate from a run that finished."""
        if nbytes < 50000:
            self.startup_seconds = 0.7 * self.startup_seconds + 0.3 * seconds
        elif seconds > self.startup_seconds:
            rate = (seconds - self.startup_seconds) / nbytes
            self.seconds_per_byte = 0.7 * self.seconds_per_byte + 0.3 * rate

    # ---- running the tools ----

    def note(self, line):
        self.log.append(line)

    def writer_args(self, input_path, mode, recover=False):
        args = [self.tools["invert-index"], input_path, "--index", self.dir, "--format", "json",
                "--json", "--threads", str(self.rng.randint(1, 2)),
                "--ram-mb", str(self.rng.randint(4, 16))]
        if mode:
            args.append("--" + mode)
        if recover:
            args.append("--recover")
        return args

    def start(self, args, tag):
        out = open(os.path.join(self.root, "out-%s" % tag), "w+b")
        err = open(os.path.join(self.root, "err-%s" % tag), "w+b")
        self.note("$ " + " ".join(args[1:]) + "   # " + os.path.basename(args[0]))
        proc = subprocess.Popen(args, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        proc.files = (out, err)
        proc.started = time.monotonic()
        return proc

    def finish(self, proc, timeout=TOOL_TIMEOUT, kill_after=None):
        """Waits for proc (SIGKILLs it after kill_after seconds if given).
        Returns (rc, stdout, stderr, killed)."""
        killed = False
        try:
            proc.wait(timeout=kill_after if kill_after is not None else timeout)
        except subprocess.TimeoutExpired:
            if kill_after is None:
                proc.kill()
                proc.wait()
                raise Violation("%s ran longer than %d s (hung?)" % (proc.args[0], timeout))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed = True
        outputs = []
        for f in proc.files:
            f.seek(0)
            outputs.append(f.read().decode(errors="replace"))
            f.close()
        rc = proc.returncode
        self.note("  -> %s after %.3f s%s" % ("SIGKILL" if killed else "exit %d" % rc,
                                              time.monotonic() - proc.started,
                                              "" if killed else self._tail(outputs[1])))
        return rc, outputs[0], outputs[1], killed

    def finish_when(self, proc, watch):
        """Polls the directory listing while proc runs and SIGKILLs it as
        soon as watch(names) is true. Returns what finish() does."""
        deadline = time.monotonic() + TOOL_TIMEOUT
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                hit = watch(os.listdir(self.dir))
            except FileNotFoundError:
                hit = False
            if hit:
                return self.finish(proc, kill_after=0)
            time.sleep(0.0005)
        return self.finish(proc)

    @staticmethod
    def _tail(text):
        text = text.strip()
        return "" if not text else "; stderr: " + (text if len(text) < 400 else "..." + text[-400:])

    def run(self, args, tag):
        return self.finish(self.start(args, tag))[:3]

    # ---- observing the directory ----

    def listing(self):
        out = []
        for dirpath, _, files in os.walk(self.dir):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                out.append("%10d  %s" % (os.path.getsize(path), os.path.relpath(path, self.dir)))
        return sorted(out, key=lambda line: line[12:])

    def snapshot(self):
        """Names, sizes and hashes of every file but write.lock (its holder
        writes its pid into it, even a writer that is then refused)."""
        snap = {}
        for dirpath, _, files in os.walk(self.dir):
            for name in files:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, self.dir)
                if rel != "write.lock":
                    snap[rel] = (os.path.getsize(path), sha256(path))
        return snap

    def expect_unchanged(self, before, what, may_delete=frozenset()):
        after = self.snapshot()
        if after == before:
            return
        gone = sorted(set(before) - set(after) - may_delete)
        new = sorted(set(after) - set(before))
        changed = sorted(n for n in set(before) & set(after) if before[n] != after[n])
        if gone or new or changed:
            raise Violation("%s changed the directory: deleted %s, created %s, changed %s"
                            % (what, gone, new, changed))

    def commit_generations(self):
        """Generations of the commit points on disk that are invert's (the
        foreign segments_* files dropped in are left out)."""
        gens = []
        for name in os.listdir(self.dir):
            m = COMMIT_RE.match(name)
            if m and name not in self.foreign:
                gens.append(int(m.group(1)))
        return sorted(gens)

    def newest_generation(self):
        gens = [g for g in self.commit_generations() if g not in self.damaged]
        return gens[-1] if gens else 0

    def stored_ids(self):
        rc, out, err = self.run([self.tools["invert-dump"], self.dir, "--ids"], "dump")
        if rc != 0:
            raise Violation("invert-dump --ids failed (exit %d): %s" % (rc, err.strip()))
        return out.splitlines()

    def check_index(self, ids, gen):
        """The index verifies, holds exactly `ids` at generation `gen`, every
        foreign file survived and invert-check lists the foreign ones."""
        rc, out, err = self.run([self.tools["invert-check"], self.dir], "check")
        if rc != 0:
            raise Violation("invert-check failed (exit %d):\n%s%s" % (rc, out, err))
        m = re.search(r"^commit generation (\d+):", out, re.M)
        if not m or int(m.group(1)) != gen:
            raise Violation("invert-check reports generation %s, expected %d"
                            % (m.group(1) if m else "?", gen))
        listed = set()
        m = re.search(r"are not part of the index:(.*)$", out, re.M)
        if m:
            listed = set(m.group(1).split())
        self.not_in_index = listed
        missing = sorted(self.foreign - listed)
        if missing:
            raise Violation("invert-check does not list %s as not part of the index:\n%s"
                            % (missing, out))
        found = self.stored_ids()
        if found != sorted(ids):
            got = collections.Counter(found)
            dups = sorted(i for i, c in got.items() if c > 1)
            extra = sorted(set(found) - ids)
            lost = sorted(ids - set(found))
            raise Violation("stored ids differ from the model (generation %d): %d found, %d "
                            "expected; %d lost %s, %d unexpected %s, duplicated %s"
                            % (gen, len(found), len(ids), len(lost), lost[:5], len(extra),
                               extra[:5], dups[:5]))
        self.check_survivors()

    def check_survivors(self):
        for rel, digest in sorted(self.survivors.items()):
            path = os.path.join(self.dir, rel)
            if not os.path.isfile(path):
                raise Violation("%s was deleted" % rel)
            if sha256(path) != digest:
                raise Violation("%s was changed" % rel)

    def adopt(self, ids, gen):
        """`ids` at generation `gen` is now the last successful commit."""
        self.ids, self.gen = ids, gen
        self.history[gen] = ids
        on_disk = set(self.commit_generations())
        self.history = {g: s for g, s in self.history.items() if g in on_disk}

    def after_writer(self, old_ids, old_gen, new_ids, what):
        """After runs that may have committed: the generation moved iff the
        index holds new_ids. Returns True iff it committed."""
        gen = self.newest_generation()
        if gen == old_gen:
            self.check_index(old_ids, old_gen)
            return False
        if gen < old_gen:
            raise Violation("%s: the newest commit went back from generation %d to %d"
                            % (what, old_gen, gen))
        self.check_index(new_ids, gen)
        self.adopt(new_ids, gen)
        return True

    # ---- operations ----

    def op_append(self):
        mode = self.rng.choices(["append", "overwrite", None], [75, 17, 8])[0]
        path, new, nbytes = self.make_input("a")
        if mode is None:  # no --append/--overwrite over an existing index: refused
            # The refused writer still opened the index, and opening cleans up
            # what a killed writer left: files outside the newest commit
            # (invert-check's list), but never a foreign file nor the commit
            # point kept for --recover.
            older = [g for g in self.commit_generations() if g < self.gen and
                     g not in self.damaged]
            may_delete = frozenset(self.not_in_index - set(self.survivors) -
                                   {"segments_%d" % g for g in older[-1:]})
            before = self.snapshot()
            rc, _, err = self.run(self.writer_args(path, None), "a")
            if rc != 1 or "already holds an index" not in err:
                raise Violation("a run without --append/--overwrite over an existing index "
                                "exited %d (expected 1, 'already holds an index'): %s"
                                % (rc, err.strip()))
            self.expect_unchanged(before, "a refused run", may_delete)
            self.counts["append: no mode flag refused"] += 1
            return
        recover = self.rng.random() < 0.1  # --recover on a sound index changes nothing
        estimate = self.estimate_seconds(nbytes)
        # When to SIGKILL it: never, after a random delay (0..run time, or
        # near its end), or as soon as the directory shows a flushed segment,
        # a commit point being written, or the new commit point.
        when = self.rng.choices(["finish", "random", "near end", "flush", "pending", "commit"],
                                [20, 40, 10, 10, 10, 10])[0]
        delay = {"random": self.rng.uniform(0, estimate),
                 "near end": self.rng.uniform(0.7 * estimate, 1.3 * estimate)}.get(when)
        old_ids, old_gen = self.ids, self.gen
        expected = old_ids | new if mode == "append" else new
        before = set(os.listdir(self.dir))
        watch = {
            "flush": lambda names: any(n.endswith(".si") and n not in before for n in names),
            "pending": lambda names: any(n.startswith("pending_segments_") for n in names),
            "commit": lambda names: any(
                COMMIT_RE.match(n) and n not in self.foreign and int(n[9:]) > old_gen
                for n in names),
        }.get(when)
        self.note("kill: %s%s" % (when, "" if delay is None else " (%.3f s)" % delay))
        proc = self.start(self.writer_args(path, mode, recover), "a")
        if watch:
            rc, out, err, killed = self.finish_when(proc, watch)
        else:
            rc, out, err, killed = self.finish(proc, kill_after=delay)
        if not killed:
            if rc != 0:
                raise Violation("%s run failed (exit %d): %s" % (mode, rc, err.strip()))
            self.learn(nbytes, time.monotonic() - proc.started)
        committed = self.after_writer(old_ids, old_gen, expected, mode)
        if not killed and not committed:
            raise Violation("%s run exited 0 but no new commit appeared" % mode)
        if not killed and self.report_generation(out) != self.gen:
            raise Violation("%s run reports commit generation %d, the directory's newest is %d"
                            % (mode, self.report_generation(out), self.gen))
        outcome = ("completed" if not killed else
                   "killed after commit" if committed else "killed before commit")
        self.counts["%s %s" % (mode, outcome)] += 1
        self.kills["%s: %s" % (when, outcome)] += 1

    def merge_args(self):
        """Merge flags for update and delete runs: many merges, forced or not."""
        args = ["--merge-policy", self.rng.choice(["tiered", "tiered", "none"])]
        if self.rng.random() < 0.4:
            args += ["--force-merge", str(self.rng.choice([1, 1, 2, 3]))]
        return args

    def run_killed(self, args, nbytes, what):
        """Runs a writer, SIGKILLed never, after a random delay or when a new
        segment or commit point shows. Returns (rc, out, err, killed, when)."""
        estimate = self.estimate_seconds(nbytes) * 2  # merges take longer
        when = self.rng.choices(["finish", "random", "flush", "commit"], [25, 50, 15, 10])[0]
        delay = self.rng.uniform(0, estimate) if when == "random" else None
        before = set(os.listdir(self.dir))
        old_gen = self.gen
        segments = self.rng.randint(1, 4)  # kill once this many new segments show
        watch = {
            "flush": lambda names: sum(1 for n in names if n.endswith(".si") and
                                       n not in before) >= segments,
            "commit": lambda names: any(
                COMMIT_RE.match(n) and n not in self.foreign and int(n[9:]) > old_gen
                for n in names),
        }.get(when)
        self.note("kill: %s%s" % (when, "" if delay is None else " (%.3f s)" % delay))
        proc = self.start(args, what)
        if watch:
            rc, out, err, killed = self.finish_when(proc, watch)
        else:
            rc, out, err, killed = self.finish(proc, kill_after=delay)
        return rc, out, err, killed, when

    def op_update(self):
        old_ids, old_gen = self.ids, self.gen
        existing = sorted(old_ids)
        reused = self.rng.sample(existing, min(len(existing), self.rng.randint(0, 300)))
        fresh = ["d%07d-c%d" % (self.next_doc + i, self.cycle)
                 for i in range(self.rng.randint(0, 400))]
        self.next_doc += len(fresh)
        ids = reused + fresh
        # Some ids several times: only the last version may survive.
        ids += self.rng.choices(ids, k=len(ids) // 3) if ids else []
        if not ids:
            ids = fresh = ["d%07d-c%d" % (self.next_doc, self.cycle)]
            self.next_doc += 1
        self.rng.shuffle(ids)
        path, nbytes = self.make_input_with_ids("u", ids)
        args = [self.tools["invert-index"], path, "--index", self.dir, "--format", "json",
                "--json", "--append", "--update-key", "id", "--threads",
                str(self.rng.randint(1, 2)), "--ram-mb", str(self.rng.choice([4, 4, 8]))]
        args += self.merge_args()
        rc, out, err, killed, when = self.run_killed(args, nbytes, "u")
        if not killed and rc != 0:
            raise Violation("update run failed (exit %d): %s" % (rc, err.strip()))
        committed = self.after_writer(old_ids, old_gen, old_ids | frozenset(ids), "update")
        if not killed and not committed:
            raise Violation("update run exited 0 but no new commit appeared")
        outcome = ("completed" if not killed else
                   "killed after commit" if committed else "killed before commit")
        self.counts["update %s" % outcome] += 1
        self.kills["update %s: %s" % (when, outcome)] += 1

    def op_delete(self):
        old_ids, old_gen = self.ids, self.gen
        existing = sorted(old_ids)
        gone = self.rng.sample(existing, min(len(existing), self.rng.randint(0, 200)))
        absent = ["never-%d" % self.rng.randrange(1 << 30) for _ in range(self.rng.randint(0, 5))]
        lines = gone + absent + self.rng.choices(gone, k=len(gone) // 4) if gone else absent
        self.rng.shuffle(lines)
        path = os.path.join(self.root, "del-%d.txt" % self.cycle)
        with open(path, "w") as f:
            f.write("".join(i + ("\r\n" if self.rng.random() < 0.1 else "\n") for i in lines))
        self.note("delete file %s: %d lines, %d ids of the index"
                  % (os.path.basename(path), len(lines), len(gone)))
        args = [self.tools["invert-index"], "--index", self.dir, "--json", "--delete-ids", path,
                "--ram-mb", "4"] + self.merge_args()
        rc, out, err, killed, when = self.run_killed(args, 20000 + 50 * len(old_ids), "d")
        if not killed and rc != 0:
            raise Violation("delete run failed (exit %d): %s" % (rc, err.strip()))
        expected = old_ids - frozenset(gone)
        committed = self.after_writer(old_ids, old_gen, expected, "delete")
        if not killed and not committed and expected != old_ids:
            raise Violation("delete run exited 0 but no new commit appeared")
        outcome = ("completed" if not killed else
                   "killed after commit" if committed else "killed before commit")
        self.counts["delete %s" % outcome] += 1
        self.kills["delete %s: %s" % (when, outcome)] += 1

    @staticmethod
    def report_generation(out):
        """The commit generation in invert-index's --json report."""
        try:
            return int(json.loads(out.strip().splitlines()[-1])["commit_generation"])
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise Violation("no commit_generation in invert-index's report (%s): %r" % (e, out))

    def wait_for_lock(self, proc, seconds=10):
        """Returns True once proc holds write.lock (its pid is in the file),
        False if it exited first."""
        lock = os.path.join(self.dir, "write.lock")
        want = ("%d\n" % proc.pid).encode()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            try:
                with open(lock, "rb") as f:
                    if f.read() == want:
                        return True
            except FileNotFoundError:
                pass
            time.sleep(0.002)
        return False

    def op_second_writer(self):
        race = self.rng.random() < 0.15  # start both at once: either may win the lock
        path_a, new_a, bytes_a = self.make_input("w1", self.rng.choice(["medium", "big"]))
        path_b, new_b, _ = self.make_input("w2", "small")
        mode_b = "append" if race or self.rng.random() < 0.7 else "overwrite"
        # After the first took the lock, mostly within its run, sometimes after.
        delay = self.rng.uniform(0, 0.9 * bytes_a * self.seconds_per_byte + 0.01)
        old_ids, old_gen = self.ids, self.gen
        a = self.start(self.writer_args(path_a, "append"), "w1")
        if not race:
            self.wait_for_lock(a)
            time.sleep(delay)
        a_running = a.poll() is None
        b = self.start(self.writer_args(path_b, mode_b), "w2")
        rc_b, out_b, err_b, _ = self.finish(b)
        a_still_running = a.poll() is None
        rc_a, out_a, err_a, _ = self.finish(a)
        for name, rc, err in (("first", rc_a, err_a), ("second", rc_b, err_b)):
            if rc not in (0, 1) or (rc == 1 and LOCK_MESSAGE not in err):
                raise Violation("%s writer exited %d: %s" % (name, rc, err.strip()))
        if not race:
            if rc_a != 0:
                raise Violation("the first writer was affected by the second: exit %d" % rc_a)
            if rc_b == 1 and not a_running:
                raise Violation("the second writer was refused although the first had exited")
        if rc_a == 1 and rc_b == 1:
            raise Violation("both writers were refused")
        if rc_a == 0 and rc_b == 0 and a_still_running and not race:
            raise Violation("the second writer committed while the first held the lock")
        if rc_a == 0 and rc_b == 0:
            # Two commits: the first one's ids are the model of its generation
            # (a --recover may need them later).
            gen_a, gen_b = self.report_generation(out_a), self.report_generation(out_b)
            first = new_a if gen_a < gen_b else new_b
            self.history[min(gen_a, gen_b)] = old_ids | first
            expected = (old_ids | new_a | new_b) if mode_b == "append" else new_b
            outcome = "both ran (first had finished)"
        elif rc_a == 0:
            expected = old_ids | new_a
            outcome = "second refused"
        else:
            expected = old_ids | new_b
            outcome = "first refused (lost the race)"
        self.after_writer(old_ids, old_gen, expected, "two writers")
        self.counts["writer2 %s%s" % ("race: " if race else "", outcome)] += 1

    def damage(self, data):
        kind = self.rng.choice(self.damage_kinds)
        if kind == "flip":
            at = self.rng.randrange(len(data))
            return kind, data[:at] + bytes([data[at] ^ self.rng.randint(1, 255)]) + data[at + 1:]
        if kind == "truncate":
            return kind, data[:self.rng.randrange(len(data))]
        if kind == "garbage after header":  # magic and codec name kept: still a commit point
            keep = min(len(data), 4 + 1 + len("InvertCommit"))
            return kind, data[:keep] + self.rng.randbytes(self.rng.randint(0, 2 * len(data)))
        if kind == "garbage":
            return kind, self.rng.randbytes(self.rng.randint(0, 2 * len(data)))
        if kind == "zeroed":  # what a crash can leave of a file on some file systems
            return kind, bytes(len(data))
        return kind, data

    def op_corrupt(self):
        gen = self.newest_generation()
        if gen != self.gen:
            raise Violation("newest commit point on disk is generation %d, the model's %d"
                            % (gen, self.gen))
        name = "segments_%d" % gen
        path = os.path.join(self.dir, name)
        with open(path, "rb") as f:
            original = f.read()
        kind, damaged = self.damage(original)
        with open(path, "wb") as f:
            f.write(damaged)
        if kind == "unreadable":
            os.chmod(path, 0)
        self.note("damaged %s (%d bytes): %s, now %d bytes" % (name, len(original), kind,
                                                               len(damaged)))
        before = self.snapshot()
        input_path, new, _ = self.make_input("c", "small")

        def refused(rc, out, err, what):
            if rc != 1 or name not in out + err:
                raise Violation("%s over the damaged %s exited %d%s (expected: exit 1, a message "
                                "naming %s):\n%s%s"
                                % (what, name, rc, "" if name in out + err else
                                   " without naming " + name, name, out, err))
            self.expect_unchanged(before, what)

        rc, out, err = self.run(self.writer_args(input_path, "append"), "c1")
        refused(rc, out, err, "a plain --append")
        rc, out, err = self.run([self.tools["invert-check"], self.dir], "c2")
        refused(rc, out, err, "invert-check")
        rc, out, err = self.run([self.tools["invert-dump"], self.dir, "--ids"], "c3")
        refused(rc, out, err, "invert-dump --ids")

        older = [g for g in self.commit_generations() if g < gen and g not in self.damaged]
        if self.rng.random() < 0.5:
            self.restore(path, original, kind, "restored")
            return
        mode = "append" if self.rng.random() < 0.8 else "overwrite"
        rc, out, err = self.run(self.writer_args(input_path, mode, recover=True), "c4")
        if not older:  # the damaged one was the only commit point: nothing to continue from
            refused(rc, out, err, "--recover with no older commit point")
            self.restore(path, original, kind, "recover impossible (no older commit), restored")
            return
        if rc != 0:
            raise Violation("--recover --%s failed (exit %d): %s" % (mode, rc, err.strip()))
        base = older[-1]
        if base not in self.history:
            raise Violation("harness: no model for the older commit point segments_%d" % base)
        expected = (self.history[base] | new) if mode == "append" else new
        self.note("recover continues from segments_%d (%d ids)" % (base, len(self.history[base])))
        if not os.path.isfile(path):
            raise Violation("--recover deleted the damaged %s" % name)
        # It stays damaged (an unreadable one stays unreadable: made readable
        # again it would be a sound older commit point, which invert may
        # delete) and must survive every later operation.
        digest = "unreadable" if kind == "unreadable" else hashlib.sha256(damaged).hexdigest()
        if sha256(path) != digest:
            raise Violation("--recover changed the damaged %s" % name)
        self.damaged.add(gen)
        self.survivors[name] = digest
        new_gen = self.newest_generation()
        if new_gen <= gen:
            raise Violation("--recover exited 0 but wrote no commit above generation %d" % gen)
        self.check_index(expected, new_gen)
        self.adopt(expected, new_gen)
        self.counts["corrupt (%s) recovered with --%s" % (kind, mode)] += 1

    def restore(self, path, original, kind, outcome):
        if kind == "unreadable":
            os.chmod(path, 0o644)
        with open(path, "wb") as f:
            f.write(original)
        self.counts["corrupt (%s) %s" % (kind, outcome)] += 1

    def op_foreign(self):
        fresh = [n for n in FOREIGN_NAMES if n not in self.survivors]
        names = self.rng.sample(fresh, min(len(fresh), self.rng.randint(1, 3)))
        if not names or self.rng.random() < 0.2:  # rewrite one already there
            names.append(self.rng.choice(list(FOREIGN_NAMES)))
        for rel in names:
            data = self.rng.randbytes(self.rng.randint(0, 4096))
            if rel == "_zz.doc" and self.rng.random() < 0.5:
                # A codec header as invert writes it, with another index's id:
                # named and shaped like a segment file, but not this index's.
                codec = b"InvertPostingsDoc"
                data = (HEADER_MAGIC + bytes([len(codec)]) + codec + b"\x01\x00\x00\x00"
                        + self.rng.randbytes(16) + data)
            elif COMMIT_RE.match(os.path.basename(rel)):
                data = b"not a commit point\n" + data  # >= 4 bytes, no header magic
            path = os.path.join(self.dir, rel)
            if os.path.lexists(path) and rel not in self.survivors:
                continue  # e.g. segments_2024 once the index's own generations got there
            m = COMMIT_RE.match(rel)
            if m and int(m.group(1)) > max(self.commit_generations() + [0]):
                # Named like a commit point newer than every real one: it may
                # be a commit point destroyed whole, so invert must refuse the
                # index (and change nothing) until it is moved away.
                with open(path, "wb") as f:
                    f.write(data)
                before = self.snapshot()
                rc, out, err = self.run([self.tools["invert-check"], self.dir], "check")
                if rc == 0 or "not an invert commit point" not in out + err:
                    raise Violation("invert-check accepted an index whose newest commit-named "
                                    "file %s is not a commit point (exit %d):\n%s%s"
                                    % (rel, rc, out, err))
                inp, _, _ = self.make_input("refused", "small")
                rc, out, err = self.run(self.writer_args(inp, "append"), "append")
                if rc == 0:
                    raise Violation("--append accepted an index whose newest commit-named file "
                                    "%s is not a commit point" % rel)
                self.expect_unchanged(before, "a refused --append")
                os.remove(path)
                self.note("dropped %s newer than every commit point: refused, then removed" % rel)
                self.counts["foreign newer commit-named file refused"] += 1
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            self.survivors[rel] = hashlib.sha256(data).hexdigest()
            self.foreign.add(rel.split("/")[0])
            self.note("dropped %s (%d bytes)" % (rel, len(data)))
        self.counts["foreign files dropped"] += len(names)

    def op_verify(self):
        self.counts["verify"] += 1

    # ---- the loop ----

    OPS = (("append", op_append, 35), ("writer2", op_second_writer, 20),
           ("corrupt", op_corrupt, 20), ("foreign", op_foreign, 10), ("update", op_update, 20),
           ("delete", op_delete, 10), ("verify", op_verify, 15))

    def setup(self):
        path, ids, _ = self.make_input("setup", "small")
        rc, _, err = self.run(self.writer_args(path, None), "setup")
        if rc != 0:
            raise Violation("creating the index failed (exit %d): %s" % (rc, err.strip()))
        gen = self.newest_generation()
        self.check_index(ids, gen)
        self.adopt(ids, gen)

    def main(self, cycles):
        print("seed: %d (replay with --seed %d)" % (self.seed, self.seed), flush=True)
        print("directory: %s" % self.root, flush=True)
        passed = 0
        started = time.monotonic()
        try:
            self.setup()
            for self.cycle in range(1, cycles + 1):
                self.log = []
                name, fn, _ = self.rng.choices(self.OPS, [w for _, _, w in self.OPS])[0]
                self.op = name
                fn(self)
                self.check_index(self.ids, self.gen)  # after every cycle
                passed += 1
                if self.cycle % 50 == 0:
                    print("cycle %d: %d ids, generation %d, %.0f s" % (
                        self.cycle, len(self.ids), self.gen, time.monotonic() - started),
                        flush=True)
        except Violation as v:
            self.report_failure(v)
            self.print_counts()
            print("hostile: %d passed, 1 failed" % passed)
            return 1
        self.print_counts()
        print("hostile: %d passed, 0 failed (%.0f s)" % (passed, time.monotonic() - started))
        if self.keep:
            print("kept: %s" % self.root)
        else:
            shutil.rmtree(self.root, ignore_errors=True)
        return 0

    def report_failure(self, v):
        print("\nFAILED: cycle %d, operation %s, seed %d (replay: python3 scripts/hostile.py "
              "--seed %d --cycles %d)" % (self.cycle, self.op, self.seed, self.seed, self.cycle))
        print("violation: %s" % v)
        print("model: generation %d, %d ids; damaged on purpose: %s; foreign: %s" % (
            self.gen, len(self.ids), sorted(self.damaged), sorted(self.survivors)))
        print("this cycle ran:")
        for line in self.log:
            print("  " + line)
        print("directory listing of %s:" % self.dir)
        for line in self.listing():
            print("  " + line)
        print("kept the directory: %s" % self.dir)

    def print_counts(self):
        groups = collections.OrderedDict()
        for key in sorted(self.counts):
            op = key.split(" ", 1)[0]
            groups.setdefault(op, []).append(key)
        for op, keys in groups.items():
            print("; ".join("%s: %d" % (k, self.counts[k]) for k in keys))
        if self.kills:
            print("append/overwrite by kill moment: " +
                  "; ".join("%s %d" % (k, v) for k, v in sorted(self.kills.items())))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None, help="default: random")
    parser.add_argument("--bin", default=None,
                        help="the tools' build directory (holding index/invert-index ...)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--damage", default=None, metavar="KINDS",
                        help="comma-separated damage kinds for the corrupt operation "
                             "(default: all of %s)" % ", ".join(DAMAGE_KINDS))
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    kinds = args.damage.split(",") if args.damage else list(DAMAGE_KINDS)
    if os.geteuid() == 0 and "unreadable" in kinds:  # root reads a mode-000 file anyway
        if args.damage:
            parser.error("--damage unreadable needs a user other than root")
        kinds.remove("unreadable")
    unknown = sorted(set(kinds) - set(DAMAGE_KINDS))
    if unknown:
        parser.error("--damage: unknown %s; choose from %s" % (unknown, ", ".join(DAMAGE_KINDS)))
    harness = Harness(seed, find_tools(args.bin), args.keep, kinds)
    sys.exit(harness.main(args.cycles))


if __name__ == "__main__":
    main()
