"""`habitat-ray run|sensitivity SCENARIO --shards N`: one Habitat scenario (or one sensitivity design) as N Ray
tasks, merged into one report.

Flow: check the arguments and find the habitat binary (exit 2 on bad input; for `sensitivity` also a local
`habitat sensitivity … --merge` of no shards, which checks the design options in a few milliseconds) -> connect to
Ray (or start a local instance) -> submit one task per shard (`habitat_ray.shard.run_shard`: `habitat run --shard
K/N`, or `habitat sensitivity --shard K/N` for every N-th design point) -> show progress while they finish and
write each returned shard folder to a local directory -> merge them locally (`habitat merge`, or `habitat
sensitivity … --merge`) into the report folder.

Exit status: 0 success; 1 a shard failed after its retries, or the merge failed; 2 bad input (arguments, scenario,
binary, destination, Ray missing or unreachable, or a shard where habitat itself exited 2); 130/143 stopped by
SIGINT/SIGTERM (the shards are cancelled, no report is written).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import habitat_ray
from habitat_ray.shard import INPUTS_DIR, BadInputError, TransientShardError, run_shard

INSTALL_HINT = "python3 -m pip install -r Distributed/requirements.txt"


class LaunchError(Exception):
    """A run that cannot go on: `code` is the exit status (2 bad input, 1 failure)."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class Plan:
    """Everything one distributed run needs, checked by `make_plan`."""

    scenario: Path
    scenario_text: str
    shards: int
    out: Path
    habitat: str                 # local binary: merges, and is shipped with --ship-binary
    worker_habitat: str          # the path the tasks run (same as habitat unless --worker-habitat)
    ship_binary: bool = False
    address: str | None = None
    threads: int = 1
    max_retries: int = 3
    keep_shards: Path | None = None
    passthrough: list[str] = field(default_factory=list)  # to every shard's habitat (shipped inputs' paths)
    progress: str = "auto"
    show_summary: bool = True    # let the merge print its summary (KPIs on stdout; a design's top parameters)
    command: str = "run"         # the habitat subcommand of the shards: run, or sensitivity (a design's points)
    inputs: dict[str, bytes] = field(default_factory=dict)  # files `passthrough` names as INPUTS_DIR/<name>
    local_args: list[str] | None = None  # the same options with local paths (merge, preflight); None: passthrough

    @property
    def merge_args(self) -> list[str]:
        """The options as the local habitat (merge, preflight) takes them."""
        return self.passthrough if self.local_args is None else self.local_args


@dataclass
class ShardStats:
    """What one shard reported back: its try number, node, wall seconds, the habitat child's peak RSS and CPU
    seconds (user + system)."""

    index: int
    attempt: int
    node: str
    seconds: float
    max_rss_kib: int
    cpu_seconds: float = 0.0


@dataclass
class Outcome:
    """A finished run: the report folder, per-shard stats, and driver-side wall seconds (submit to merged)."""

    out: Path
    shards: list[ShardStats]
    wall_seconds: float
    merge_seconds: float

    @property
    def person_days(self) -> int:
        """`person_days` from the merged manifest.json."""
        return int(json.loads((self.out / "manifest.json").read_text())["person_days"])


def say(message: str) -> None:
    """Print a launcher message on stderr."""
    print(f"habitat-ray: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------------
# Arguments and checks


def build_parser() -> argparse.ArgumentParser:
    """The `habitat-ray` argument parser (argparse exits 2 on a usage error)."""
    parser = argparse.ArgumentParser(prog="habitat-ray", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"habitat-ray {habitat_ray.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a scenario as N shards on Ray and merge them",
                         description="Run SCENARIO as N shards on a Ray cluster and merge them into the report "
                                     "a single `habitat run` writes, byte for byte.")
    add_launch_options(run, "report folder (default: the scenario's outputs.dir, else Reports/<scenario name>, "
                            "as `habitat run`)")
    sens = sub.add_parser("sensitivity", help="run a sensitivity design's points as N shards on Ray and analyse them",
                          description="Simulate the points of a `habitat sensitivity` design as N shards on a Ray "
                                      "cluster (every N-th point each) and analyse them locally with `habitat "
                                      "sensitivity … --merge`: the sensitivity.csv and sensitivity-design.csv a "
                                      "single `habitat sensitivity` writes, byte for byte. The design options are "
                                      "habitat's (habitat sensitivity --help) and go to every shard and the merge.")
    add_launch_options(sens, "analysis folder (default: Reports/<scenario name>-sensitivity, as `habitat "
                             "sensitivity`)")
    design = sens.add_argument_group("design options (passed through; habitat checks them)")
    design.add_argument("--params", nargs="+", action="extend", default=[], metavar="KEY",
                        help="behaviour parameters to vary (behavior.<key>)")
    for flag, text in (("--assumptions", "every parameter whose default is an assumption (habitat's default)"),
                       ("--unpinned", "the parameters today's fits leave unpinned"),
                       ("--all", "every number parameter the scenario's products read"),
                       ("--allow-large", "run even when a shard looks too large for its machine")):
        design.add_argument(flag, action="store_true", help=text)
    design.add_argument("--span", metavar="F", help="vary each parameter over its default ± F × |default|")
    design.add_argument("--ranges", metavar="FILE", help="CSV of ranges (parameter,low,high); shipped to the workers")
    design.add_argument("--range", action="append", default=[], metavar="KEY=LO:HI", help="one parameter's range "
                                                                                          "(repeatable)")
    design.add_argument("--method", metavar="morris|sobol", help="design (habitat's default: morris)")
    design.add_argument("--samples", metavar="N", help="Morris trajectories or Sobol base rows")
    design.add_argument("--levels", metavar="L", help="Morris grid levels (even)")
    design.add_argument("--kpis", nargs="+", action="extend", default=[], metavar="ID",
                        help="KPI or world-check figure ids to analyse")
    design.add_argument("--design-seed", metavar="S", help="seed of the design (the people keep the scenario's)")
    design.add_argument("--resamples", metavar="B", help="bootstrap resamples for the intervals (used by the merge)")
    return parser


#: `habitat sensitivity` design options passed through as given: flags, single values, and several after one flag.
SENSITIVITY_FLAGS = ("assumptions", "unpinned", "all", "allow_large")
SENSITIVITY_VALUES = ("span", "method", "samples", "levels", "design_seed", "resamples")
SENSITIVITY_LISTS = ("params", "kpis")


def add_launch_options(command: argparse.ArgumentParser, out_help: str) -> None:
    """The options every habitat-ray command has: the scenario, the shards, Ray, the binary and the run size."""
    command.add_argument("scenario", help="scenario file (YAML); its text is shipped to the workers")
    command.add_argument("--shards", type=int, required=True, metavar="N", help="number of shards (tasks), N >= 1")
    command.add_argument("--address", metavar="ADDR",
                         help="Ray cluster: auto, ray://HOST:10001 (Ray client) or HOST:6379. Default: $RAY_ADDRESS, "
                              "else a cluster started with `ray start` on this machine, else a local in-process Ray")
    command.add_argument("--out", metavar="DIR", help=out_help)
    command.add_argument("--habitat", metavar="PATH", help="habitat binary (default: $HABITAT, `habitat` on PATH, "
                                                           ".build/release/habitat, .build/debug/habitat)")
    command.add_argument("--worker-habitat", metavar="PATH",
                         help="habitat's path on the workers when it differs from --habitat (shared-path mode)")
    command.add_argument("--ship-binary", action="store_true",
                         help="upload the --habitat binary with the job (Ray runtime_env working_dir) instead of "
                              "expecting it at the same path on every node")
    command.add_argument("--threads-per-shard", type=int, default=1, metavar="T",
                         help="habitat --threads per shard; each shard reserves T Ray CPUs (default 1)")
    command.add_argument("--max-retries", type=int, default=3, metavar="R",
                         help="retries per shard after a worker/node loss or a habitat failure other than exit 2 "
                              "(default 3)")
    command.add_argument("--keep-shards", metavar="DIR", help="keep the shard folders in DIR (default: a temp dir, "
                                                              "removed at the end)")
    command.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                         help="progress bar on stderr (default auto: when stderr is a terminal)")
    for name in ("people", "days", "replications", "seed"):
        command.add_argument(f"--{name}", type=int, help=f"passed to every shard's habitat --{name}")
    command.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                         help="passed to every shard's habitat --set (repeatable)")


def find_habitat(explicit: str | None) -> str | None:
    """The habitat binary: --habitat, $HABITAT, `habitat` on PATH, .build/release/habitat, .build/debug/habitat."""
    if explicit:
        return explicit
    for candidate in (os.environ.get("HABITAT"), shutil.which("habitat"),
                      ".build/release/habitat", ".build/debug/habitat"):
        if candidate and os.path.isfile(candidate):
            return candidate
    return None


def _scenario_tree(scenario_text: str) -> dict | None:
    """The scenario's top-level mapping, or None when PyYAML (which comes with Ray) is missing or cannot read it."""
    try:
        import yaml

        tree = yaml.safe_load(scenario_text)
    except Exception:
        return None
    return tree if isinstance(tree, dict) else None


def scenario_name(scenario_text: str, scenario: Path) -> str:
    """The scenario's `name`, else the file stem."""
    tree = _scenario_tree(scenario_text)
    if tree is not None:
        return str(tree["name"]) if tree.get("name") else scenario.stem
    match = re.search(r"^name:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(#.*)?$", scenario_text, re.MULTILINE)
    return match.group(1) if match else scenario.stem


def default_out(scenario_text: str, scenario: Path) -> Path:
    """Where `habitat run` would write: the scenario's `outputs.dir`, else `Reports/<name>`, else the file stem."""
    outputs = (_scenario_tree(scenario_text) or {}).get("outputs")
    if isinstance(outputs, dict) and outputs.get("dir"):
        return Path(str(outputs["dir"]))
    return Path("Reports") / scenario_name(scenario_text, scenario)


def default_sensitivity_out(scenario_text: str, scenario: Path) -> Path:
    """Where `habitat sensitivity` would write: `Reports/<scenario name>-sensitivity` (it ignores outputs.dir)."""
    return Path("Reports") / f"{scenario_name(scenario_text, scenario)}-sensitivity"


def _is_shard_folder(path: Path) -> bool:
    """True if `path` holds a shard folder's manifest.json: kind "shard" (`habitat run --shard`), or kind
    "sensitivity" with a "shard" entry (`habitat sensitivity --shard`)."""
    try:
        manifest = json.loads((path / "manifest.json").read_text())
        return manifest.get("kind") == "shard" or (manifest.get("kind") == "sensitivity" and "shard" in manifest)
    except (OSError, ValueError, AttributeError):
        return False


def make_plan(args: argparse.Namespace) -> Plan:
    """Check the parsed arguments; raise LaunchError(2, ...) naming the first problem."""
    if args.shards < 1:
        raise LaunchError(2, f"--shards must be at least 1 (got {args.shards})")
    if args.threads_per_shard < 1:
        raise LaunchError(2, f"--threads-per-shard must be at least 1 (got {args.threads_per_shard})")
    if args.max_retries < 0:
        raise LaunchError(2, f"--max-retries must be 0 or more (got {args.max_retries})")
    scenario = Path(args.scenario)
    if not scenario.is_file():
        raise LaunchError(2, f"no scenario file {scenario}")
    try:
        text = scenario.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LaunchError(2, f"cannot read scenario file {scenario}: {error}")
    habitat = find_habitat(args.habitat)
    if habitat is None:
        raise LaunchError(2, "no habitat binary found: pass --habitat PATH or set $HABITAT "
                             "(looked for `habitat` on PATH, .build/release/habitat, .build/debug/habitat)")
    if not (os.path.isfile(habitat) and os.access(habitat, os.X_OK)):
        raise LaunchError(2, f"habitat binary {habitat} does not exist or is not executable")
    habitat = os.path.abspath(habitat)
    if args.ship_binary and args.worker_habitat:
        raise LaunchError(2, "--worker-habitat is for shared-path mode; with --ship-binary the workers run the "
                             "shipped --habitat binary")
    sensitivity = args.command == "sensitivity"
    if args.out:
        out = Path(args.out)
    else:
        out = (default_sensitivity_out if sensitivity else default_out)(text, scenario)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / "manifest.json").is_file())):
        raise LaunchError(2, f"{out} exists and is not a Habitat report folder; habitat merge will not write "
                             "there (choose another --out)")
    keep = Path(args.keep_shards) if args.keep_shards else None
    if keep is not None:
        if keep.exists() and not keep.is_dir():
            raise LaunchError(2, f"--keep-shards {keep} exists and is not a directory")
        for k in range(1, args.shards + 1):
            folder = keep / shard_folder_name(k, args.shards)
            if folder.exists() and not _is_shard_folder(folder):
                raise LaunchError(2, f"{folder} exists and is not a shard folder; will not overwrite it")
    passthrough = []
    for name in ("people", "days", "replications", "seed"):
        value = getattr(args, name)
        if value is not None:
            passthrough += [f"--{name}", str(value)]
    for item in args.set:
        passthrough += ["--set", item]
    local_args, inputs = None, {}
    if sensitivity:
        passthrough += sensitivity_args(args)
        local_args = list(passthrough)
        if args.ranges:  # the workers get the file's bytes, and read them from the task's own folder
            try:
                ranges = Path(args.ranges).read_bytes()
            except OSError as error:
                raise LaunchError(2, f"cannot read --ranges {args.ranges}: {error.strerror or error}")
            name = "ranges-" + (Path(args.ranges).name or "file")
            inputs[name] = ranges
            passthrough += ["--ranges", f"{INPUTS_DIR}/{name}"]
            local_args += ["--ranges", str(Path(args.ranges).absolute())]
    return Plan(scenario=scenario, scenario_text=text, shards=args.shards, out=out, habitat=habitat,
                worker_habitat=args.worker_habitat or habitat, ship_binary=args.ship_binary, address=args.address,
                threads=args.threads_per_shard, max_retries=args.max_retries, keep_shards=keep,
                passthrough=passthrough, progress=args.progress, command=args.command, inputs=inputs,
                local_args=local_args)


def sensitivity_args(args: argparse.Namespace) -> list[str]:
    """The design options of `habitat-ray sensitivity` as habitat takes them (all but --ranges, a file)."""
    out = []
    for name in SENSITIVITY_LISTS:
        if getattr(args, name):
            out += [f"--{name}", *getattr(args, name)]
    for name in SENSITIVITY_FLAGS:
        if getattr(args, name):
            out.append("--" + name.replace("_", "-"))
    for name in SENSITIVITY_VALUES:
        if getattr(args, name) is not None:
            out += ["--" + name.replace("_", "-"), getattr(args, name)]
    for item in args.range:
        out += ["--range", item]
    return out


def preflight(plan: Plan) -> None:
    """Let the local habitat check the options the shards will get, before anything touches Ray.

    For `sensitivity`: `habitat sensitivity SCENARIO … --merge PROBE` loads the scenario, applies the overrides and
    builds the design (parameters, ranges, method) — every check a shard makes before simulating — and then
    refuses PROBE, an empty folder, naming it: that refusal means the options are good; any other exit 2 is the
    user's bad input, reported with habitat's message. (--kpis ids are only known once a point has run: a shard
    refuses unknown ones, exit 2, which ends the run at once.) `run` needs none: its shards refuse bad input at
    once, before simulating.
    """
    if plan.command != "sensitivity":
        return
    with tempfile.TemporaryDirectory(prefix="habitat-ray-preflight-") as tmp:
        probe = Path(tmp) / "no-shard"
        probe.mkdir()
        try:
            proc = subprocess.run([plan.habitat, "sensitivity", str(plan.scenario), *plan.merge_args,
                                   "--merge", str(probe), "--out", str(Path(tmp) / "out"), "--progress", "never"],
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as error:
            raise LaunchError(2, f"cannot run {plan.habitat} to check the design options: {error}")
    if proc.returncode == 2 and str(probe) not in proc.stderr:
        raise LaunchError(2, f"habitat sensitivity refused the options:\n{proc.stderr.strip()}")


def shard_folder_name(index: int, count: int) -> str:
    """The local folder name of shard `index` of `count`."""
    return f"shard-{index}-of-{count}"


# ---------------------------------------------------------------------------------------------------------------
# Ray


def import_ray():
    """Import Ray, or raise LaunchError(2) saying what is missing and how to install it."""
    try:
        import ray
    except ImportError:
        raise LaunchError(2, "Ray is not installed (the Python package `ray` could not be imported); "
                             f"install it with: {INSTALL_HINT}")
    return ray


def _answers(address: str, timeout: float = 5.0) -> bool:
    """True if a TCP connection to HOST:PORT (a `ray://` prefix allowed) opens within `timeout` seconds.

    Ray itself retries a dead address for minutes; probing first turns that into a prompt, clear error.
    """
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, _, port = hostport.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


def _local_cluster_address() -> str | None:
    """The address `ray.init(address="auto")` would use ($RAY_ADDRESS, `ray start`'s address file, a running GCS),
    or None if there is none."""
    try:
        from ray._private.services import get_ray_address_from_environment

        return get_ray_address_from_environment("auto", None)
    except ConnectionError:
        return None
    except Exception:  # private API moved: let ray.init decide
        return "auto"


def connect(ray, address: str | None, runtime_env: dict) -> bool:
    """Connect to Ray; return True if a local instance was started in this process.

    `address`: ray://HOST:PORT (Ray client), HOST:PORT (driver on the cluster network), "auto" (the cluster on this
    machine; an error if there is none), or None: $RAY_ADDRESS, else the cluster on this machine, else start a
    local Ray in this process.
    """
    kwargs = {"runtime_env": runtime_env}
    if not (address or "").startswith("ray://"):
        kwargs.update(log_to_driver=False, logging_level=logging.WARNING)
    address = address or os.environ.get("RAY_ADDRESS") or None
    start_local = address is None
    if address in (None, "auto"):
        found = _local_cluster_address()
        if found is None and not start_local:
            raise LaunchError(2, "--address auto: no Ray cluster is running on this machine (start one with "
                                 "`ray start --head`, or leave out --address to use a local Ray for this run)")
        if found not in (None, "auto") and not _answers(found):
            if not start_local:
                raise LaunchError(2, f"the Ray cluster recorded on this machine ({found}) is not answering "
                                     "(`ray stop`, then `ray start --head`)")
            say(f"the Ray cluster recorded on this machine ({found}) is not answering; ignoring it")
            found = None
        address = None if found is None else "auto"  # "auto", not `found`: Ray then also picks up its auth token
    elif not _answers(address):
        raise LaunchError(2, f"cannot reach Ray at {address} (nothing answers on that host and port)")
    try:
        if address is None:
            ray.init(address="local", include_dashboard=False, **kwargs)
            say(f"no Ray cluster found: started a local Ray in this process "
                f"({int(ray.cluster_resources().get('CPU', 0))} CPUs)")
            return True
        ray.init(address=address, **kwargs)
        say("connected to the Ray cluster running on this machine" if address == "auto"
            else f"connected to Ray at {address}")
        return False
    except ConnectionError as error:
        raise LaunchError(2, f"cannot connect to Ray at {address}: {error} (a cluster with token authentication, "
                             "the default of `ray start` when ~/.ray/auth_token exists, also needs "
                             "RAY_AUTH_MODE=token and the token in ~/.ray/auth_token or $RAY_AUTH_TOKEN)")
    except ImportError as error:  # e.g. ray:// without grpcio
        raise LaunchError(2, f"{error}; install the client extra with: {INSTALL_HINT}")


def runtime_env_for(plan: Plan, staging: Path) -> tuple[dict, str]:
    """The job's runtime_env and the habitat path the tasks run.

    The habitat_ray package always travels with the job (py_modules) so workers need nothing but Ray installed.
    With --ship-binary the binary is copied into `staging`, which becomes the tasks' working_dir.
    """
    env: dict = {"py_modules": [str(Path(habitat_ray.__file__).parent)]}  # a path: Ray client can't pickle modules
    if not plan.ship_binary:
        return env, plan.worker_habitat
    shutil.copy2(plan.habitat, staging / "habitat")
    libraries = bundled_libraries(plan.habitat)
    for name, path in libraries.items():
        shutil.copy2(path, staging / name)  # found through LD_LIBRARY_PATH (set by the task) or $ORIGIN
    size = sum(f.stat().st_size for f in staging.iterdir())
    say(f"shipping {plan.habitat} with the {len(libraries)} libraries it links beyond glibc "
        f"({size / 2**20:.1f} MiB)")
    if size > 500 * 1024 * 1024:
        say("warning: Ray refuses a working_dir package over 512 MiB; build with --static-swift-stdlib")
    # Ray warns about any file over 10 MiB in a working_dir; a binary is expected to be that big.
    logging.getLogger("ray._private.runtime_env.packaging").setLevel(logging.ERROR)
    env["working_dir"] = str(staging)
    return env, "habitat"  # relative: resolved against the task's working directory


#: Libraries every Linux node has (glibc, the C++ runtime): never shipped. Matched against the soname's start.
SYSTEM_LIBRARIES = ("linux-vdso", "linux-gate", "ld-linux", "libc.so", "libm.so", "libpthread.so", "libdl.so",
                    "librt.so", "libutil.so", "libresolv.so", "libstdc++.so", "libgcc_s.so")


def bundled_libraries(binary: str) -> dict[str, str]:
    """{soname: path} of the shared libraries `binary` needs beyond glibc and the C++ runtime (from `ldd`).

    For a plain `swift build` that is the Swift runtime and Foundation (~80 MiB) plus GSL; for a
    `--static-swift-stdlib` build only GSL. Shipping them beside the binary lets workers without a Swift
    toolchain or libgsl run it (they still need a glibc at least as new as the build machine's).
    Empty where `ldd` is unavailable or fails (e.g. a static binary).
    """
    try:
        listing = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    found = {}
    for line in listing.splitlines():
        match = re.match(r"\s*(\S+)\s+=>\s+(/\S+)", line)
        if match and not match.group(1).startswith(SYSTEM_LIBRARIES):
            found[match.group(1)] = match.group(2)
    return found


class Progress:
    """A one-line progress bar over shards on stderr, with messages printed above it."""

    def __init__(self, total: int, mode: str):
        self.total, self.done, self.retried = total, 0, 0
        self.enabled = mode == "always" or (mode == "auto" and sys.stderr.isatty())
        self.start = time.monotonic()

    def draw(self) -> None:
        """Redraw the bar (no-op when disabled)."""
        if not self.enabled:
            return
        width = 30
        filled = width * self.done // self.total
        extra = f"  {self.retried} retried" if self.retried else ""
        sys.stderr.write(f"\r  shards [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}  "
                         f"{time.monotonic() - self.start:6.1f} s{extra} ")
        sys.stderr.flush()

    def message(self, text: str) -> None:
        """Print `text` on its own line above the bar."""
        if self.enabled:
            sys.stderr.write("\r\033[K")
        say(text)
        self.draw()

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def write_shard_folder(folder: Path, files: dict[str, bytes]) -> None:
    """Write a returned shard folder atomically (a sibling temp dir renamed into place), replacing an old one."""
    staging = folder.with_name(folder.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    for name, data in files.items():
        target = (staging / name).resolve()
        if not str(target).startswith(str(staging.resolve()) + os.sep):
            raise LaunchError(1, f"shard returned a file outside its folder: {name!r}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    if folder.exists():
        shutil.rmtree(folder)
    staging.rename(folder)


def run_shards(ray, plan: Plan, habitat_path: str, shards_root: Path) -> list[ShardStats]:
    """Submit every shard, wait for them with a progress bar, write their folders under `shards_root`."""
    task = ray.remote(run_shard)
    refs = {}
    inputs = ray.put(plan.inputs) if plan.inputs else None  # once in the object store, not once per task
    for k in range(1, plan.shards + 1):
        ref = task.options(name=f"habitat {plan.command} shard {k}/{plan.shards}", num_cpus=plan.threads,
                           max_retries=plan.max_retries, retry_exceptions=[TransientShardError]).remote(
            habitat_path, plan.scenario_text, plan.scenario.name, k, plan.shards, plan.threads, plan.passthrough,
            plan.command, inputs)
        refs[ref] = k
    progress = Progress(plan.shards, plan.progress)
    stats: list[ShardStats] = []
    pending = list(refs)
    progress.draw()
    try:
        while pending:
            check_interrupted()
            done, pending = ray.wait(pending, num_returns=1, timeout=0.5)
            for ref in done:
                k = refs[ref]
                label = f"shard {k}/{plan.shards}"
                try:
                    result = ray.get(ref)
                except BadInputError as error:  # Ray's RayTaskError subclasses the task's exception type
                    raise LaunchError(2, _cause(error))
                except TransientShardError as error:
                    raise LaunchError(1, f"{_cause(error)}\n(no retries left: --max-retries {plan.max_retries})")
                except ray.exceptions.RayError as error:
                    raise LaunchError(1, f"{label} failed after {plan.max_retries} retries: "
                                         f"{type(error).__name__}: {str(error).strip().splitlines()[0]}")
                write_shard_folder(shards_root / shard_folder_name(k, plan.shards), result["files"])
                stat = ShardStats(k, result["attempt"], result["node"], result["seconds"], result["max_rss_kib"],
                                  result.get("cpu_seconds", 0.0))
                stats.append(stat)
                progress.done += 1
                if stat.attempt > 1:
                    progress.retried += 1
                retried = f", retried {stat.attempt - 1}x" if stat.attempt > 1 else ""
                progress.message(f"{label}: done on attempt {stat.attempt}{retried} "
                                 f"({stat.seconds:.1f} s on {stat.node}, peak RSS {stat.max_rss_kib / 1024:.0f} MiB)")
            progress.draw()
    except BaseException:
        for ref in pending:  # stop the rest: force-cancel kills their workers, and prctl kills habitat
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        raise
    finally:
        progress.close()
    return sorted(stats, key=lambda s: s.index)


def _cause(error: Exception) -> str:
    """The task's own exception message out of Ray's wrapper (which adds a traceback)."""
    cause = getattr(error, "cause", None)
    return str(cause if cause is not None else error).strip()


def merge_command(plan: Plan, folders: list[str]) -> list[str]:
    """The local command that merges the shard folders into plan.out: `habitat merge` for `run`'s shards,
    `habitat sensitivity SCENARIO <the same options> --merge` (which rebuilds the design to check them) for a design's."""
    if plan.command == "sensitivity":
        return [plan.habitat, "sensitivity", str(plan.scenario), *plan.merge_args, "--merge", *folders,
                "--out", str(plan.out), "--progress", "never"]
    return [plan.habitat, "merge", *folders, "--out", str(plan.out), "--progress", "never"]


def merge(plan: Plan, shards_root: Path) -> float:
    """Merge the shard folders into plan.out (`merge_command`); return its seconds. Raise LaunchError on failure."""
    folders = [str(shards_root / shard_folder_name(k, plan.shards)) for k in range(1, plan.shards + 1)]
    if plan.out.parent != Path(""):
        plan.out.parent.mkdir(parents=True, exist_ok=True)
    command = merge_command(plan, folders)
    started = time.monotonic()
    sys.stdout.flush()  # habitat's summary (stdout) goes to ours, as `habitat run` prints it
    proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=None if plan.show_summary else subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode == 0 and proc.stderr.strip() and plan.show_summary:
        sys.stderr.write(proc.stderr)  # warnings; for a design, its top parameters per output
    if proc.returncode != 0:
        what = "habitat merge" if plan.command == "run" else f"habitat {plan.command} --merge"
        raise LaunchError(2 if proc.returncode == 2 else 1, f"{what} exited {proc.returncode}: {proc.stderr.strip()}")
    return time.monotonic() - started


def launch(plan: Plan) -> Outcome:
    """Run `plan` end to end on Ray (connecting, or starting a local Ray) and return the merged report's Outcome."""
    started = time.monotonic()
    preflight(plan)
    ray = import_ray()
    with tempfile.TemporaryDirectory(prefix="habitat-ray-") as tmp:
        tmp = Path(tmp)
        (tmp / "ship").mkdir()
        runtime_env, habitat_path = runtime_env_for(plan, tmp / "ship")
        connected_here = not ray.is_initialized()  # bench_scale may connect first, with its own runtime_env
        local = connect(ray, plan.address, runtime_env) if connected_here else False
        if signal.getsignal(signal.SIGINT) is _record_signal:  # main() handles signals: take SIGTERM back
            _handle_signals()                                   # from the sys.exit handler ray.init installs
        try:
            _check_cpus(ray, plan.threads, local)
            shards_root = plan.keep_shards or tmp / "shards"
            shards_root.mkdir(parents=True, exist_ok=True)
            what = "the sensitivity design of " if plan.command == "sensitivity" else ""
            say(f"running {what}{plan.scenario} as {plan.shards} shard(s), {plan.threads} thread(s) each")
            stats = run_shards(ray, plan, habitat_path, shards_root)
        finally:
            if connected_here:
                ray.shutdown()
        check_interrupted()
        merge_seconds = merge(plan, shards_root)
    return Outcome(out=plan.out, shards=stats, wall_seconds=time.monotonic() - started, merge_seconds=merge_seconds)


def _check_cpus(ray, threads: int, local: bool) -> None:
    """No node with `threads` CPUs: an error for the local Ray started here (the shards would wait forever),
    a warning on a cluster (an autoscaler may add a bigger node)."""
    try:
        largest = max((n.get("Resources", {}).get("CPU", 0) for n in ray.nodes() if n.get("Alive")), default=0)
    except Exception:
        return
    if largest >= threads:
        return
    if local:
        raise LaunchError(2, f"--threads-per-shard {threads} is more than this machine's {largest:g} CPUs")
    say(f"warning: no node has {threads} CPU(s) now (largest: {largest:g}); the shards wait until one joins "
        "(lower --threads-per-shard on a small cluster)")


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived (main() records it; the wait loop raises this so the usual cleanup runs)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.code = 128 + signum  # 130 SIGINT, 143 SIGTERM, as habitat


_SIGNALS: list[int] = []  # signals received while main() runs
_HANDLED = (signal.SIGINT, signal.SIGTERM)


def _record_signal(signum, _frame) -> None:
    """Only record: raising inside Ray's C++ calls (ray.wait) would turn into a SystemError."""
    _SIGNALS.append(signum)


def _handle_signals() -> None:
    """Route SIGINT/SIGTERM to _record_signal (again after ray.init, which installs its own SIGTERM handler)."""
    for signum in _HANDLED:
        signal.signal(signum, _record_signal)


def check_interrupted() -> None:
    """Raise Interrupted if main() recorded a signal."""
    if _SIGNALS:
        raise Interrupted(_SIGNALS[0])


def main(argv: list[str] | None = None) -> int:
    """Console entry point `habitat-ray`; returns the exit status."""
    args = build_parser().parse_args(argv)
    previous = {signum: signal.getsignal(signum) for signum in _HANDLED}
    _handle_signals()
    try:
        plan = make_plan(args)
        outcome = launch(plan)
    except LaunchError as error:
        say(f"error: {error}")
        return error.code
    except Interrupted as stop:
        say(f"stopped by {stop}; cancelled the remaining shards, wrote no report")
        return stop.code
    except KeyboardInterrupt:
        say("interrupted; cancelled the remaining shards, wrote no report")
        return 130
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _SIGNALS.clear()
    retried = sum(1 for s in outcome.shards if s.attempt > 1)
    note = f", {retried} shard(s) retried" if retried else ""
    say(f"report written to {outcome.out} ({len(outcome.shards)} shards, {outcome.wall_seconds:.1f} s{note})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
