#!/usr/bin/env python3
"""Write director-heldout-9.json (comet-eval.director-dataset/v1) next to this file.

Held-out set 9 for the Context Director.  Hand-written content (projects, topics, titles, texts, task
wordings) lives in this file as data; keys, load passes, relevance grades (from the labelling rules of the
eval README), forbidden lists, core profiles and session-start expectations are computed, then validated.
The computed machinery is the same as in make_director_heldout_8.py (and 7, 6); only the content is new.
Deterministic: fixed seed, no clock.

Run:  python make_director_heldout_9.py [-v] [--check]        (needs the `pathspec` package)
      --check validates and reports without writing the file.
"""
import collections
import fnmatch
import json
import random
import re
import statistics
import sys
from pathlib import Path

import pathspec

SEED = 9595
NAME = "director-heldout-9"
OUT = Path(__file__).with_name(NAME + ".json")
DEFAULT_BUDGET = 6000
OPS = {"edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"}
PHASES = {"plan", "build", "verify", "review", "release"}

HB, SM, WS, PA, OB = "heron-buoy", "sedge-model", "wren-shaders", "puffin-app", "otter-billing"
PROJECTS = [
    {"name": HB, "remote": "https://example.invalid/marlow-ocean/heron-buoy.git", "language": "Ada"},
    {"name": SM, "remote": "https://example.invalid/marlow-ocean/sedge-model.git", "language": "Fortran"},
    {"name": WS, "remote": "https://example.invalid/marlow-apps/wren-shaders.git", "language": "GLSL"},
    {"name": PA, "remote": "https://example.invalid/marlow-apps/puffin-app.git", "language": "Objective-C"},
    {"name": OB, "remote": "https://example.invalid/marlow-finance/otter-billing.git", "language": "Groovy"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = ["sensor-telemetry", "scientific-units", "numerical-solvers", "audio-processing", "power-management",
          "push-notifications", "deep-links", "map-tiles", "shader-code", "invoicing", "chat-bots", "build-caching"]

# Topics of earlier sets (development set, held-out 4-8 and tuning 1-6); this set must not reuse any of them.
EARLIER_TOPICS = {
    # development set
    "dockerfiles", "shell-scripts", "sql-style", "caching", "css-styling", "background-jobs", "datetime",
    "pr-description", "layering", "async-concurrency",
    # held-out 4
    "input-validation", "outbound-http", "pagination", "rate-limiting", "notifications", "type-annotations",
    "ui-components", "event-schemas", "incident-response", "issue-tracking", "progress-reports",
    # held-out 5
    "webhooks", "websockets", "cryptography", "orm-queries", "data-exports", "k8s-manifests", "image-assets",
    "e2e-tests", "todo-comments", "diff-presentation", "cli-tools", "generated-code",
    # held-out 6
    "feature-flags", "accessibility", "localisation", "payments-reconciliation", "search-indexing",
    "pdf-rendering", "schedulers", "secrets-handling", "tracing", "graphql", "mobile-builds",
    # held-out 7
    "code-ownership", "database-indexes", "data-retention", "monorepo-tooling", "email-templates",
    "container-security", "offline-sync", "geospatial", "firmware-updates", "state-machines", "payment-retries",
    "browser-support",
    # held-out 8
    "sales-tax", "receipt-printing", "multi-tenancy", "database-transactions", "barcode-scanning", "url-routing",
    "web-crawling", "regex-patterns", "text-encoding", "clock-domains", "register-maps", "fixed-width-files",
    # tuning 1-4
    "dependencies", "formatting-linting", "db-migrations", "documentation", "ci-pipelines", "error-handling",
    "i18n", "logging", "secrets", "commit-messages", "code-review", "test-fixtures", "api-design", "deployment",
    "observability", "performance", "config-env", "error-messages", "privacy", "local-dev",
    "dependency-injection", "git-branches", "naming-comments", "frontend-state", "graphql-schema", "terraform",
    "queue-consumers", "auth", "file-uploads", "release-notes", "python-packaging", "benchmarks", "testing",
    "naming", "access-control", "dataframes", "rollouts", "explanations", "branching", "money-amounts",
    # tuning 5
    "memory-safety", "concurrency-locks", "api-versioning", "audit-logging", "license-compliance",
    "serialization", "ml-experiment-tracking", "game-assets", "backups", "floating-point", "reproducibility",
    "crash-reporting",
    # tuning 6
    "hot-code-reload", "smart-contract-security", "gas-costs", "plugin-apis", "keyboard-shortcuts",
    "data-quality-checks", "idempotency", "dead-code-removal", "sandboxing", "supply-chain", "timeouts-retries",
    "data-visualisation",
}
# Languages of the projects of held-out sets 4-8 and tuning sets 1-6; this set uses other ones.
EARLIER_LANGUAGES = {"Go", "TypeScript", "Kotlin", "Python", "Markdown", "Rust", "Java", "Ruby", "PHP", "Elixir",
                     "C", "Swift", "Scala", "C#", "JavaScript",
                     "HCL", "Dart", "Zig", "C++", "Julia", "Haskell", "Clojure", "Erlang", "OCaml", "Lua", "R",
                     "Solidity",
                     "F#", "Elm", "Perl", "SystemVerilog", "COBOL"}
# ---------------------------------------------------------------------------------------------
# Records.  R(sym, topic, project, trap, title, text, p=paths, t=tasks, o=operations, ph=phases, ...)
#   kind: how it is loaded.  "rem" remember, "app" apply, "sig" signal, "cor:<sym>" correct,
#         "sup:<sym>" supersede.  state: live | superseded (set automatically) | forgotten | one-off
# ---------------------------------------------------------------------------------------------
RECS = []


def R(sym, topic, project, trap, title, text, p=(), t=(), o=(), ph=(), kind="rem", state="live",
      trig=(), also=None, mtype=None, mclass=None):
    RECS.append(dict(sym=sym, topic=topic, project=project, trap=trap, title=title, text=text,
                     p=list(p), t=list(t), o=list(o), ph=list(ph), kind=kind, state=state,
                     trig=list(trig), also=also, mtype=mtype, mclass=mclass))


def ONEOFF(sym, topic, project, title, text):
    R(sym, topic, project, "one-off", "(one-off) " + title, text, kind="sig", state="one-off")


def PAIR_COR(sym, topic, project, title, old_text, new_text, **sel):
    """remember an old version, then correct it (the correction keeps the old selectors)."""
    R(sym + ".old", topic, project, "superseded", title, old_text, **sel)
    R(sym, topic, project, None, title, new_text, kind="cor:" + sym + ".old", **sel)


def PAIR_SUP(sym, topic, project, title, old_text, new_text, **sel):
    """apply an inferred rule, then supersede it with a delta."""
    R(sym + ".old", topic, project, "superseded", title, old_text, kind="app", **sel)
    R(sym, topic, project, None, title, new_text, kind="sup:" + sym + ".old", **sel)


def COPY(sym, of_sym, project):
    """a global rule copied word for word into one repository (project scope)."""
    src = next(r for r in RECS if r["sym"] == of_sym)
    R(sym, src["topic"], project, "repo-copy", src["title"], src["text"], p=src["p"], t=src["t"], o=src["o"],
      ph=src["ph"], trig=src["trig"])


# ---- sensor-telemetry --------------------------------------------------------------------------
T = "sensor-telemetry"
R("TL.g1", T, None, None, "A sample knows when it was measured",
  "Every telemetry sample carries the time it was measured (UTC from the device clock, with the clock's sync state), "
  "the sensor id and the unit; the time it was received is stored next to it and never used in its place.",
  t=["telemetry", "sensor reading", "sample timestamp", "遥测"], o=["edit", "review"])
R("TL.g2", T, None, None, "Gaps stay gaps",
  "Missing or rejected samples stay missing: nothing downstream interpolates over a gap or repeats the last value "
  "unless the caller asks for a filled series, and the quality flag travels with every value.",
  t=["gap filling", "quality flag", "missing samples"], o=["edit", "debug"], kind="app")
COPY("TL.hb.copy", "TL.g1", HB)
PAIR_COR("TL.hb", T, HB, "The telemetry frame of heron-buoy",
         "heron-buoy sends its readings as a comma-separated text line over Iridium.",
         "heron-buoy packs its readings into the binary frame defined in src/telemetry/telemetry-frames.ads (version "
         "byte, sequence number, then fixed-point fields with a scale factor each) and sends it over Iridium SBD; a "
         "frame never exceeds 340 bytes, and new fields are only ever appended at the end.",
         p=["src/telemetry/**"], t=["telemetry frame", "iridium sbd", "sequence number"],
         o=["edit", "refactor", "debug"])
R("TL.hb.qc", T, HB, None, "Only hard range checks on board",
  "heron-buoy applies only the hard range checks of src/sensors/limits.ads on board, and a value outside them is "
  "flagged, not dropped; every other quality check happens ashore, so the raw value always reaches the shore.",
  p=["src/sensors/**", "src/telemetry/**"], t=["range check", "limits.ads", "qc flag"], o=["edit", "review"])
R("TL.hb.buffer", T, HB, None, "Newest frames first after an outage",
  "Without a satellite link heron-buoy keeps its frames in the FRAM ring buffer (src/telemetry/store-ring.adb) and, "
  "when the link comes back, sends the newest frame first and the backlog after it, so current conditions arrive "
  "before history.",
  p=["src/telemetry/**"], t=["fram ring buffer", "backlog", "link outage"], o=["edit", "debug"], kind="app")
R("TL.hb.rel", T, HB, None, "Every firmware release names its frame version",
  "Every heron-buoy firmware release states the FRAME_VERSION it sends in its release notes; a release that changes a "
  "frame bumps FRAME_VERSION and ships the matching shore decoder before the firmware is tagged fw-vX.Y.Z.",
  t=["frame_version", "shore decoder", "firmware tag"], o=["release"], trig=["release"])
R("TL.hb.test", T, HB, "operation-variant", "Encode, then decode with the shore decoder",
  "When testing telemetry code in heron-buoy, run the AUnit round-trip tests in tests/telemetry/: encode on the "
  "host build, decode with the shore decoder tools/decode_frame.py, and compare field by field against the recorded "
  "frames in tests/telemetry/frames/.",
  t=["round-trip tests", "decode_frame.py"], o=["test"])
R("TL.hb.zh", T, HB, None, "采样时间取自 GPS 校准的时钟",
  "heron-buoy 的采样时间戳取自 GPS 校准过的 RTC；超过 24 小时没有 GPS 定位时，帧里的 clock_sync 标志要置为 stale，"
  "岸上据此降低时间的可信度。",
  t=["时间戳", "clock_sync", "gps 校准"], o=["edit", "debug"])
R("TL.hb.tomb", T, HB, "tombstoned", "Send only averages",
  "heron-buoy sends only the ten-minute average of each sensor.",
  t=["ten-minute average"], o=["edit"], state="forgotten")
ONEOFF("TL.hb.x1", T, HB, "The telemetry frame of heron-buoy",
       "Raise buoy 7's reporting rate to once a minute for today's calibration run with the research vessel; put it "
       "back tonight.")
R("TL.hb.ep", T, HB, "episode", "Six-hour-old waves as the latest",
  "During a November storm the satellite link dropped for nine hours; the buoy then replayed its backlog oldest "
  "first, and the forecasters took six-hour-old wave heights for the latest ones for most of the morning. Frames go "
  "newest first since then, and the shore orders everything by measurement time.",
  t=["backlog replay", "oldest first", "forecasters"], also=[])
R("TL.hb.obs", T, HB, "observed", "Decodes frames from the bench modem",
  "Observed in heron-buoy: after changing a frame, the user flashes the bench buoy, captures a few frames with the "
  "bench Iridium modem and decodes them with tools/decode_frame.py before opening a pull request.",
  t=["bench buoy", "bench modem"], ph=["verify"], kind="app")
R("TL.hb.std", T, HB, "standing", "Raw data always reaches the archive",
  "heron-buoy's raw sensor data belongs to the national marine data archive: no firmware change may stop a raw value "
  "from reaching the shore, even one that looks wrong.")
R("TL.hb.path", T, HB, "path-variant", "The v1 frame is frozen",
  "src/telemetry/legacy/ encodes the v1 frame that the twelve older buoys still send; it is frozen and only gets "
  "fixes for crashes, never new fields.",
  p=["src/telemetry/legacy/**"], t=["v1 frame", "older buoys"], o=["edit"])
R("TL.hb.plan", T, HB, "phase-variant", "Bytes and airtime before hardware",
  "When planning a new sensor for heron-buoy, work out how many bytes it adds to the frame and what that costs in "
  "Iridium airtime per month before anyone chooses the hardware.",
  t=["new sensor", "iridium airtime"], ph=["plan"])
PAIR_SUP("TL.sm", T, SM, "Buoy observations into sedge-model",
         "sedge-model reads the buoy observations from the CSV dump the shore team e-mails every morning.",
         "sedge-model ingests buoy observations only from the archive's NetCDF files through src/obs/obs_reader.f90, "
         "keeps every value's quality flag, drops values flagged 3 (suspect) or 4 (bad) before assimilation and "
         "logs how many it dropped per station.",
         p=["src/obs/**"], t=["obs_reader", "assimilation", "netcdf observations"], o=["edit", "refactor", "debug"])
R("TL.sm.zh", T, SM, None, "按测量时间匹配时间步",
  "sedge-model 同化观测时按测量时间匹配模型时间步，窗口是前后 30 分钟；不能用文件的接收时间。",
  p=["src/obs/**"], t=["同化窗口", "测量时间", "时间步"], o=["edit", "debug"])
ONEOFF("TL.sm.x1", T, SM, "Buoy observations into sedge-model", "这次回报试验先别过滤 suspect 的观测，我想看看它们对结果的影响有多大。")

# ---- scientific-units --------------------------------------------------------------------------
T = "scientific-units"
R("SU.g1", T, None, None, "SI inside, units in the names",
  "Physical quantities are stored and computed in SI units; a variable or field whose unit is not obvious carries it "
  "in its name (depth_m, flux_w_m2), and conversions happen only where data comes in or goes out.",
  t=["si units", "unit conversion", "physical quantity", "单位"], o=["edit", "review"])
R("SU.g2", T, None, None, "Say what a quantity is relative to",
  "A quantity with a reference states it: heights above chart datum or mean sea level, directions as 'coming from' "
  "or 'going to', angles in degrees true or magnetic.",
  t=["chart datum", "direction convention", "degrees true"], o=["edit", "debug", "refactor"], kind="app")
PAIR_COR("SU.sm", T, SM, "The constants module of sedge-model",
         "sedge-model writes gravity and water density as literals wherever they are needed.",
         "sedge-model takes every physical constant from src/units/constants.f90 (module sedge_constants, real(wp) "
         "parameters with the unit in a trailing comment), and wp is the only kind parameter used for reals; a "
         "literal 9.81 anywhere else fails review.",
         p=["src/**"], t=["sedge_constants", "constants.f90", "kind parameter"], o=["edit", "refactor"])
R("SU.sm.nml", T, SM, None, "Namelists name their units",
  "Every variable in sedge-model's namelists (namelists/*.nml) has its unit in its name or in the comment beside it, "
  "and the reader converts hours or kilometres into seconds and metres as it reads; the model core never sees a "
  "non-SI value.",
  p=["namelists/**", "src/io/**"], t=["namelist", "namelist reader"], o=["edit", "debug"])
R("SU.sm.docs", T, SM, None, "Units in every piece of documentation",
  "Whenever sedge-model documentation is written or changed, every quantity in text, tables and plot axes carries "
  "its unit in square brackets, and each equation says which unit each variable is in.",
  t=["units in docs", "plot axes"], o=["docs"], trig=["docs"])
R("SU.sm.out", T, SM, None, "CF units on every output variable",
  "sedge-model's NetCDF output (src/io/netcdf_out.f90) gives every variable CF-compliant units and a standard_name, "
  "and the cfchecks job in CI has to stay clean.",
  p=["src/io/**"], t=["cf conventions", "standard_name", "cfchecks"], o=["edit", "review", "debug", "refactor"],
  kind="app")
R("SU.sm.test", T, SM, "operation-variant", "Rescaled inputs in the tests",
  "When testing physics code in sedge-model, add the pFUnit case that runs the routine on inputs rescaled to other "
  "units (tests/units/rescale.pf) and checks that the result scales the way its dimension says it should.",
  t=["pfunit", "rescale.pf"], o=["test"])
R("SU.sm.zh", T, SM, None, "角度内部一律用弧度",
  "sedge-model 内部的角度一律用弧度，只有读写 namelist 和输出文件时才换算成度；变量名里要带 _rad 或 _deg。",
  t=["弧度", "角度", "_rad"], o=["edit", "refactor"])
R("SU.sm.tomb", T, SM, "tombstoned", "Depths in fathoms",
  "sedge-model keeps its bathymetry in fathoms because the first charts came that way.",
  t=["fathoms"], o=["edit"], state="forgotten")
ONEOFF("SU.sm.x1", T, SM, "The constants module of sedge-model",
       "For the comparison plot I'm sending the harbour authority, write the wave heights out in feet this once.")
R("SU.sm.ep", T, SM, "episode", "A surge warning on a calm night",
  "A namelist gave the tidal amplitude for the Fal estuary run in feet and the reader took it as metres; the harbour "
  "master got a surge warning for a perfectly calm night. Namelist variables carry their unit in their name since "
  "then.",
  t=["tidal amplitude", "surge warning"], also=[])
R("SU.sm.obs", T, SM, "observed", "Writes the dimensional analysis down",
  "Observed in sedge-model: before trusting a new term in the equations, the user writes its dimensional analysis "
  "by hand into the pull request.",
  t=["dimensional analysis"], ph=["plan", "review"], kind="app")
R("SU.sm.std", T, SM, "standing", "Only SI products",
  "From now on sedge-model publishes its products in SI units only; conversions that customers want are done by the "
  "data portal, not by the model.", kind="sig")
R("SU.sm.path", T, SM, "path-variant", "The F77 wave code stays in CGS",
  "src/legacy/ holds the original F77 wave code, which works in CGS units; src/legacy/legacy_bridge.f90 converts at "
  "the boundary, and the F77 files themselves are not converted.",
  p=["src/legacy/**"], t=["f77", "cgs", "legacy_bridge"], o=["edit"])
R("SU.sm.rev", T, SM, "phase-variant", "A units table for new variables",
  "In the review phase of sedge-model, a pull request that adds a variable lists it in a table with its unit and its "
  "standard_name.",
  t=["new variable", "units table"], ph=["review"])
PAIR_SUP("SU.hb", T, HB, "Fixed-point units on the buoy",
         "heron-buoy sends raw ADC counts and leaves the conversion to the shore.",
         "heron-buoy converts every reading to its physical unit on board with the Ada fixed-point types of "
         "src/units/ (type Celsius is delta 0.001, type Hecto_Pascal is delta 0.1, ...), and the frame stores the "
         "scaled integer; no Float appears anywhere in the conversion path.",
         p=["src/units/**", "src/sensors/**"], t=["fixed-point types", "adc counts", "delta 0.001"],
         o=["edit", "refactor", "debug"])
R("SU.hb.zh", T, HB, None, "气压用百帕，不写毫巴",
  "heron-buoy 帧里的气压用百帕（hPa）乘 10 存成整数，代码和文档里都不要写 mbar。",
  t=["气压", "百帕", "mbar"], o=["edit", "debug", "docs"])
R("SU.hb.tomb", T, HB, "tombstoned", "Wind in knots",
  "heron-buoy reports wind speed in knots.",
  t=["knots"], o=["edit"], state="forgotten")
R("SU.hb.sig", T, HB, "signal", "字段表里写明单位",
  "以后 heron-buoy 每加一个传感器字段，都要在 docs/fields.md 里写明单位、比例因子和取值范围。", kind="sig")

# ---- numerical-solvers -------------------------------------------------------------------------
T = "numerical-solvers"
R("NS.g1", T, None, None, "Named tolerances, honest convergence",
  "Iterative solvers take their tolerance and iteration limit as named parameters with a comment saying why those "
  "values; a solver that reaches its iteration limit reports that it did not converge instead of returning its last "
  "iterate as a result.",
  t=["solver", "convergence", "iteration limit", "收敛"], o=["edit", "review"])
R("NS.g2", T, None, None, "Compare numbers within a stated tolerance",
  "Numerical results are compared with a relative and an absolute tolerance chosen for the quantity, never with ==, "
  "and each test says which tolerance it uses and why.",
  t=["relative tolerance", "absolute tolerance"], o=["test", "review", "debug"], kind="app")
COPY("NS.sm.copy", "NS.g1", SM)
PAIR_COR("NS.sm", T, SM, "The implicit diffusion step of sedge-model",
         "sedge-model steps vertical diffusion explicitly and halves dt whenever it blows up.",
         "sedge-model advances vertical diffusion with the Crank-Nicolson step in src/solver/implicit_step.f90 and "
         "solves each water column with the Thomas algorithm in tridiag.f90; the explicit path is gone, and dt is "
         "chosen from the advective CFL number alone.",
         p=["src/solver/**", "src/physics/**"], t=["crank-nicolson", "thomas algorithm", "tridiag"],
         o=["edit", "refactor", "debug"])
R("NS.sm.cfl", T, SM, None, "Stop on the CFL number, not on NaNs",
  "sedge-model computes the advective CFL number every step and stops the run with a message naming the cell and the "
  "value when it exceeds 0.9, rather than letting the solution blow up into NaNs.",
  p=["src/solver/**", "src/physics/**"], t=["cfl number", "courant number", "nan values"], o=["edit", "debug"])
R("NS.sm.arrays", T, SM, None, "Loops follow the memory layout",
  "In sedge-model the innermost loop runs over the first array index (Fortran is column-major), arrays are declared "
  "(nz, nx, ny) so a water column is contiguous, and the time loop creates no array temporaries (check with "
  "-fcheck=array-temps).",
  p=["src/**"], t=["column-major", "array temporaries", "loop order"], o=["edit", "refactor"], kind="app")
R("NS.sm.test", T, SM, "operation-variant", "Manufactured solutions and the order of convergence",
  "When testing a solver in sedge-model, use the manufactured-solution cases in tests/mms/ and check that the error "
  "falls at the scheme's order when the grid is refined twice.",
  t=["manufactured solution", "order of convergence"], o=["test"])
R("NS.sm.zh", T, SM, None, "不要用 -ffast-math",
  "sedge-model 的编译选项里不能有 -ffast-math 或 -Ofast；它们会改变 NaN 的处理和求和顺序，结果就没法和参考运行逐位对比了。",
  t=["-ffast-math", "编译选项", "求和顺序"], o=["edit", "review"])
R("NS.sm.tomb", T, SM, "tombstoned", "Single precision is enough",
  "sedge-model runs in single precision to save memory.",
  t=["single precision"], o=["edit"], state="forgotten")
ONEOFF("NS.sm.x1", T, SM, "The implicit diffusion step of sedge-model",
       "Loosen the pressure solver tolerance to 1e-4 for tonight's ensemble so it finishes before the morning "
       "bulletin; I'll put it back tomorrow.")
R("NS.sm.ep", T, SM, "episode", "A week of drifting sea level",
  "The pressure solver once gave up at its 200-iteration limit without saying so, and a week of forecasts carried a "
  "slowly drifting sea level that nobody caught until the tide gauges disagreed by 40 cm. Non-convergence stops the "
  "run since then.",
  t=["drifting sea level", "tide gauges"], also=[])
R("NS.sm.obs", T, SM, "observed", "Plots the residuals first",
  "Observed in sedge-model: when a run misbehaves, the user first plots the solver's residual history from the run "
  "log with scripts/plot_residuals.py before reading any code.",
  t=["residual history", "plot_residuals"], ph=["build", "verify"], kind="app")
R("NS.sm.std", T, SM, "standing", "The reference run decides",
  "A change to sedge-model's numerics is merged only when the 30-day reference run stays within the bounds agreed "
  "with the oceanographers, who own those bounds.")
R("NS.sm.path", T, SM, "path-variant", "The LAPACK wrappers stay thin",
  "src/solver/lapack/ only wraps the system LAPACK (dgtsv, dgbsv, dgesv) behind explicit interfaces; no algorithms of "
  "our own go there.",
  p=["src/solver/lapack/**"], t=["lapack", "dgtsv", "explicit interface"], o=["edit"])
R("NS.sm.plan", T, SM, "phase-variant", "Stability limit and order in the plan",
  "When planning a new numerical scheme for sedge-model, write its stability limit and its order of accuracy into "
  "the plan, with a reference, before implementing it.",
  t=["new scheme", "stability limit"], ph=["plan"])
R("NS.sm.sig", T, SM, "signal", "附上和参考运行的差异图",
  "以后 sedge-model 每次改数值格式，都要在 PR 里附上和参考运行的差异图。", kind="sig")
PAIR_SUP("NS.hb", T, HB, "Heave from the accelerometer",
         "heron-buoy gets heave by integrating the vertical acceleration twice.",
         "heron-buoy estimates heave with the fixed-point band-pass integrator in src/motion/heave.adb (a 0.03-1 Hz "
         "filter around each integration, coefficients generated by tools/design_heave.py), because a plain double "
         "integration drifts without bound.",
         p=["src/motion/**"], t=["heave", "double integration", "band-pass"], o=["edit", "debug"])
R("NS.hb.tomb", T, HB, "tombstoned", "Float on the buoy",
  "heron-buoy does its motion maths in Float.",
  t=["float maths"], o=["edit"], state="forgotten")

# ---- audio-processing --------------------------------------------------------------------------
T = "audio-processing"
R("AU.g1", T, None, None, "Audio carries its sample rate and format",
  "Audio buffers always carry their sample rate, channel count and sample format; code never assumes 48 kHz or mono, "
  "and a change of rate goes through a proper resampler, never by dropping or repeating samples.",
  t=["audio", "sample rate", "resampling", "音频"], o=["edit", "review", "debug"])
R("AU.g2", T, None, None, "Nothing slow on the real-time path",
  "Code on the real-time audio path does not allocate, lock, log or do I/O; it works on preallocated buffers and "
  "hands anything slow to another task through a lock-free queue.",
  t=["audio callback", "real-time path", "lock-free queue"], o=["edit", "debug", "review"], kind="app")
PAIR_COR("AU.hb", T, HB, "The hydrophone capture chain",
         "heron-buoy records the hydrophone at 96 kHz straight to the SD card as raw WAV.",
         "heron-buoy captures the hydrophone at 64 kHz by DMA into the double buffer of "
         "src/hydrophone/hydrophone-capture.adb, decimates to 16 kHz with the polyphase FIR in "
         "hydrophone-decimate.adb, and writes 10-minute FLAC segments with their UTC start time in the header.",
         p=["src/hydrophone/**"], t=["hydrophone", "dma double buffer", "polyphase fir", "flac segment"],
         o=["edit", "refactor", "debug"])
R("AU.hb.gain", T, HB, None, "A gain change starts a new segment",
  "When heron-buoy changes the preamp gain it starts a new FLAC segment and writes the gain in dB into that "
  "segment's metadata; levels are never rescaled silently in the middle of a segment.",
  p=["src/hydrophone/**"], t=["preamp gain", "segment metadata"], o=["edit", "review"])
R("AU.hb.test", T, HB, "operation-variant", "Chirps and two-tone signals through the chain",
  "When testing the audio chain of heron-buoy, feed the chirp and two-tone files from tests/audio/signals/ through "
  "the host build of the decimator and compare the spectrum with tests/audio/expected/ within 0.1 dB.",
  t=["chirp", "two-tone", "tests/audio"], o=["test"])
R("AU.hb.zh", T, HB, None, "抗混叠滤波器不能省",
  "heron-buoy 降采样之前一定要先过抗混叠滤波器；为了省电把它关掉的改动不能合并。",
  t=["抗混叠", "降采样", "省电"], o=["edit", "review"])
R("AU.hb.tomb", T, HB, "tombstoned", "Let loud events clip",
  "heron-buoy lets loud events clip rather than lowering the gain.",
  t=["clipping"], o=["edit"], state="forgotten")
ONEOFF("AU.hb.x1", T, HB, "The hydrophone capture chain", "这周是鲸鱼季，先把 7 号浮标改成全天不停地录音，电池的事下周再说。")
R("AU.hb.ep", T, HB, "episode", "Whale calls an octave too low",
  "After a decimator change, the recordings of one service trip were written with a 16 kHz header on 8 kHz data; the "
  "bioacoustics team spent a week analysing whale calls an octave too low. The header's rate is taken from the "
  "decimator's output since then, never from a constant.",
  t=["wrong header", "whale calls", "octave too low"], also=[])
R("AU.hb.obs", T, HB, "observed", "Looks at the spectrogram",
  "Observed in heron-buoy: after any change to the audio chain, the user opens a recorded segment in Audacity's "
  "spectrogram view and checks that the 10 kHz reference tone is still where it should be.",
  t=["spectrogram", "reference tone"], ph=["verify"], kind="app")
R("AU.hb.std", T, HB, "standing", "Every recording names its hydrophone",
  "From now on every heron-buoy recording carries the hydrophone's serial number and sensitivity in its header; "
  "without them the bioacoustics team cannot use the data.", kind="sig")
R("AU.hb.path", T, HB, "path-variant", "The bench tone generator may be sloppy",
  "src/hydrophone/lab/ holds the tone generator of the test bench; it may use Float and allocate, because it never "
  "runs on a deployed buoy.",
  p=["src/hydrophone/lab/**"], t=["tone generator", "test bench"], o=["edit"])
R("AU.hb.rev", T, HB, "phase-variant", "Spectra before and after",
  "In the review phase of heron-buoy, a change to filters or decimation shows the spectrum of the chirp test signal "
  "before and after the change.",
  t=["filter change", "spectrum before and after"], ph=["review"])
PAIR_SUP("AU.pa", T, PA, "Playing hydrophone clips in puffin-app",
         "puffin-app plays hydrophone clips with AVAudioPlayer from a downloaded WAV file.",
         "puffin-app plays hydrophone clips through the AVAudioEngine graph of Puffin/Audio/PUFClipPlayer.m, "
         "converting to the device's output rate with AVAudioConverter and never changing the session's sample rate; "
         "clips arrive as FLAC and are decoded off the main thread.",
         p=["Puffin/Audio/**"], t=["avaudioengine", "avaudioconverter", "clip player"], o=["edit", "refactor", "debug"])
R("AU.pa.zh", T, PA, None, "播放用 playback 类别并处理中断",
  "puffin-app 播放录音时音频会话用 AVAudioSessionCategoryPlayback，并且要处理中断（来电、Siri）；中断结束后不要自动"
  "恢复播放，等用户自己点。",
  p=["Puffin/Audio/**"], t=["音频会话", "中断", "avaudiosession"], o=["edit", "debug"])
R("AU.pa.tomb", T, PA, "tombstoned", "Mix with other apps",
  "puffin-app mixes its audio with other apps' audio.",
  t=["mix with others"], o=["edit"], state="forgotten")
ONEOFF("AU.pa.x1", T, PA, "Playing hydrophone clips in puffin-app",
       "Put the demo clip from buoy 3 into the app bundle for Thursday's boat-show build.")

# ---- power-management --------------------------------------------------------------------------
T = "power-management"
R("PW.g1", T, None, None, "Every wake-up has a reason and a budget",
  "Code that runs on battery says why it wakes the device and for how long; periodic work is batched with other work, "
  "and nothing polls when an interrupt or a system event could wake it instead.",
  t=["battery", "power budget", "wake-up", "功耗"], o=["edit", "review"])
R("PW.g2", T, None, None, "Measure the current, don't guess",
  "A claim about power use comes from a measurement (a current profile or the platform's energy report) attached to "
  "the change, never from reading the code.",
  t=["current profile", "energy report"], o=["review", "debug"], kind="app")
COPY("PW.hb.copy", "PW.g1", HB)
PAIR_COR("PW.hb", T, HB, "The power scheduler of heron-buoy",
         "heron-buoy wakes each sensor on a timer of its own.",
         "heron-buoy's sensors, modem and hydrophone run only in the slots of the power scheduler "
         "(src/power/power-scheduler.adb): one 10-minute cycle in which every consumer declares its slot and its "
         "energy per run in the schedule table, and the scheduler rejects a table whose daily energy exceeds the "
         "budget for the current battery state.",
         p=["src/power/**", "src/sensors/**"], t=["power scheduler", "schedule table", "energy per run"],
         o=["edit", "refactor", "debug"])
R("PW.hb.low", T, HB, None, "Low-battery modes",
  "Below 11.8 V heron-buoy switches to the reduced schedule (telemetry hourly, no recording); below 11.2 V it sends "
  "only position and battery state. The current mode is reported in every frame.",
  p=["src/power/**"], t=["low-battery mode", "reduced schedule", "battery voltage"], o=["edit", "debug"],
  kind="app")
R("PW.hb.rails", T, HB, None, "Rails off between slots",
  "heron-buoy switches each peripheral's supply rail off between slots through the Power_Rails package and waits for "
  "the rail's settle time before talking to the device; a driver never leaves its rail on to save time.",
  p=["src/drivers/**", "src/power/**"], t=["supply rail", "settle time", "power_rails"], o=["edit", "review", "debug"])
R("PW.hb.test", T, HB, "operation-variant", "Simulate a winter",
  "When testing power logic in heron-buoy, run tools/energy_sim with the recorded December solar profile and check "
  "that the battery never falls below 11.0 V over the 60 simulated days.",
  t=["energy_sim", "solar profile"], o=["test"])
R("PW.hb.zh", T, HB, None, "睡眠不能挡住看门狗",
  "heron-buoy 进入低功耗睡眠之前要确认看门狗超时比最长睡眠时间长，唤醒以后第一件事就是喂狗。",
  t=["看门狗", "低功耗睡眠", "喂狗"], o=["edit", "debug"])
R("PW.hb.tomb", T, HB, "tombstoned", "Keep the modem powered",
  "heron-buoy keeps the Iridium modem powered all the time to avoid registration delays.",
  t=["modem always on"], o=["edit"], state="forgotten")
ONEOFF("PW.hb.x1", T, HB, "The power scheduler of heron-buoy",
       "Disable the low-battery mode on the bench buoy today, the bench supply sags and keeps tripping it.")
R("PW.hb.ep", T, HB, "episode", "The buoy that went dark in February",
  "A debug UART left powered after a firmware update drew 4 mA around the clock; buoy 9 ran its battery flat in "
  "February and stayed silent until April. Every release is measured on the current profiler in sleep since then.",
  t=["debug uart", "battery flat", "sleep current"], also=[])
R("PW.hb.obs", T, HB, "observed", "Profiles a whole cycle",
  "Observed in heron-buoy: for every power-related change the user records a full 10-minute cycle on the Otii "
  "current profiler and compares the charge per cycle with the previous release.",
  t=["otii", "charge per cycle"], ph=["verify"], kind="app")
R("PW.hb.std", T, HB, "standing", "Winter on battery and panel",
  "heron-buoy must get through a North Sea winter on its battery and solar panel alone; a feature that breaks that "
  "budget is not built, however useful it would be.")
R("PW.hb.path", T, HB, "path-variant", "The bench battery emulator",
  "src/power/bench/ emulates the battery and the panel for the bench rig; its timings are not part of the energy "
  "budget and it is never linked into a buoy image.",
  p=["src/power/bench/**"], t=["battery emulator", "bench rig"], o=["edit"])
R("PW.hb.plan", T, HB, "phase-variant", "An energy line for every feature",
  "When planning a heron-buoy feature, add its line to docs/energy-budget.md (mAh per day in summer and in winter) "
  "before anything is written.",
  t=["energy budget", "mah per day"], ph=["plan"])
PAIR_SUP("PW.pa", T, PA, "The anchor alarm's location updates",
         "puffin-app keeps standard location updates running in the background for the anchor alarm.",
         "puffin-app's anchor alarm uses significant-change monitoring plus a CLCircularRegion around the anchor "
         "(Puffin/Location/PUFAnchorWatch.m) and turns on full-accuracy updates only when the boat leaves the region; "
         "background tasks are ended as soon as their work is done.",
         p=["Puffin/Location/**"], t=["anchor alarm", "significant-change", "clcircularregion"],
         o=["edit", "refactor", "debug"])
R("PW.pa.zh", T, PA, None, "低电量模式下少刷新",
  "puffin-app 的后台刷新先看 NSProcessInfo 的 lowPowerModeEnabled，低电量模式下只刷新当前航线附近的浮标。",
  t=["低电量模式", "后台刷新", "lowpowermodeenabled"], o=["edit", "debug"])
R("PW.pa.tomb", T, PA, "tombstoned", "Refresh every minute",
  "puffin-app refreshes buoy data in the background every minute.",
  t=["refresh every minute"], o=["edit"], state="forgotten")
ONEOFF("PW.pa.x1", T, PA, "The anchor alarm's location updates", "明天出海测试，先让锚位报警一直开着全精度定位，耗电无所谓。")
R("PW.pa.sig", T, PA, "signal", "An energy log with every location change",
  "Always attach an Xcode energy log of a 30-minute sail to every puffin-app pull request that touches location or "
  "background work.", kind="sig")

# ---- push-notifications ------------------------------------------------------------------------
T = "push-notifications"
R("PN.g1", T, None, None, "Notify only what the person asked for",
  "Push notifications are sent only for something the person asked for or must act on; every kind has its own "
  "category that can be switched off, and nothing is sent between 22:00 and 07:00 local time except safety alerts.",
  t=["push notification", "notification category", "quiet hours", "推送"], o=["edit", "review"])
R("PN.g2", T, None, None, "Payloads carry ids, not data",
  "A push payload carries ids and a short human text, never personal or account data; the app fetches the details "
  "once it is open, and payloads stay well below the 4 KB limit.",
  t=["push payload", "payload size"], o=["edit", "debug"], kind="app")
PAIR_COR("PN.pa", T, PA, "Push handling in puffin-app",
         "puffin-app handles every notification in the app delegate's didReceiveRemoteNotification.",
         "puffin-app handles notifications in PUFPushCenter (Puffin/Push/), the UNUserNotificationCenter delegate, "
         "which maps the payload's `kind` to a PUFNotificationKind and hands it to one handler per kind; the app "
         "delegate only registers the device token and forwards it to the push gateway.",
         p=["Puffin/Push/**", "Puffin/AppDelegate.m"], t=["unusernotificationcenter", "pufpushcenter", "device token"],
         o=["edit", "refactor", "debug"])
R("PN.pa.ext", T, PA, None, "The service extension fetches the picture",
  "puffin-app's notification service extension (PuffinNotificationService/) downloads the chart image of a rich "
  "notification with a 5 s timeout and delivers the plain text if it runs late; it never opens the app's database.",
  p=["PuffinNotificationService/**"], t=["service extension", "rich notification", "mutable-content"],
  o=["edit", "debug"], kind="app")
R("PN.pa.commit", T, PA, None, "make lint before every commit",
  "Before every commit in puffin-app, run `make lint`: clang-format in dry-run mode plus the JSON-schema check of the "
  "push payload examples in Puffin/Push/payloads/.",
  t=["make lint", "clang-format", "payload examples"], o=["commit"], trig=["commit"])
R("PN.pa.test", T, PA, "operation-variant", ".apns files on the simulator",
  "When testing push handling in puffin-app, use the .apns files in PuffinTests/Push/ with `xcrun simctl push` and "
  "the XCTest cases that call PUFPushCenter directly; test pushes never go to real skippers' devices.",
  t=["simctl push", ".apns files"], o=["test"])
R("PN.pa.zh", T, PA, None, "只有安全警报能用 time-sensitive",
  "puffin-app 里只有大风警报和锚位报警可以用 time-sensitive 中断级别，其它推送一律用 active，不能为了点击率提高级别。",
  t=["time-sensitive", "中断级别", "大风警报"], o=["edit", "review"])
R("PN.pa.tomb", T, PA, "tombstoned", "Ask for permission at first launch",
  "puffin-app asks for notification permission on the first screen after install.",
  t=["permission prompt"], o=["edit"], state="forgotten")
ONEOFF("PN.pa.x1", T, PA, "Push handling in puffin-app",
       "Send one push to all TestFlight testers tonight announcing the new tide charts; the text is in the ticket.")
R("PN.pa.ep", T, PA, "episode", "Forty gale warnings in a minute",
  "After the gateway's retry queue was restored from a backup, every subscriber got forty stale gale warnings in one "
  "minute, some for gales that had ended days before. Alerts carry an expiry (apns-expiration) and the app drops "
  "expired ones since then.",
  t=["stale alerts", "apns-expiration", "retry queue"], also=[])
R("PN.pa.obs", T, PA, "observed", "Tries it with notifications denied",
  "Observed in puffin-app: the user checks every notification change on a real device with notifications denied, "
  "with provisional authorisation and in a Focus mode.",
  t=["provisional authorisation", "focus mode"], ph=["verify"], kind="app")
R("PN.pa.std", T, PA, "standing", "New kinds need the product owner",
  "From now on every new kind of notification in puffin-app needs the product owner's sign-off, with its wording in "
  "English and Dutch.", kind="sig")
R("PN.pa.path", T, PA, "path-variant", "The watch only shows what the phone forwards",
  "PuffinWatch/ gets its notifications forwarded from the phone; it has its own short-look layouts and never "
  "registers for pushes itself.",
  p=["PuffinWatch/**"], t=["watch app", "short-look"], o=["edit"])
R("PN.pa.plan", T, PA, "phase-variant", "Kind, category and level in the plan",
  "When planning a new notification for puffin-app, set down its kind, category, interruption level and how the "
  "skipper switches it off.",
  t=["new notification kind", "interruption level"], ph=["plan"])
PAIR_SUP("PN.ob", T, OB, "Billing pushes go through the gateway",
         "otter-billing calls APNs itself with the app's key to send 'invoice ready' pushes.",
         "otter-billing never talks to APNs: it posts an event with the account id and the invoice id to the push "
         "gateway's /v1/events through PushGatewayClient (src/main/groovy/otter/push/), and the gateway decides "
         "whether and when the skipper is notified.",
         p=["src/main/groovy/otter/push/**", "grails-app/services/**"], t=["push gateway", "pushgatewayclient"],
         o=["edit", "refactor", "debug"])
R("PN.ob.zh", T, OB, None, "催款推送一天最多一条",
  "otter-billing 给同一个客户的催款推送一天最多一条，周末和节假日不发。",
  t=["催款推送", "节假日", "一天一条"], o=["edit", "review", "debug"])
R("PN.ob.tomb", T, OB, "tombstoned", "A push for every payment",
  "otter-billing sends a push for every payment it receives.",
  t=["payment push"], o=["edit"], state="forgotten")
ONEOFF("PN.ob.x1", T, OB, "Billing pushes go through the gateway", "这次系统迁移完，给所有逾期的客户补发一次提醒推送，就今天。")

# ---- deep-links --------------------------------------------------------------------------------
T = "deep-links"
R("DL.g1", T, None, None, "Links work with or without the app",
  "Every link that opens a screen in an app is an ordinary https URL that also works in a browser (universal links, "
  "not custom schemes), and an unknown or outdated link opens the nearest sensible screen, never an empty one.",
  t=["deep link", "universal link", "url scheme", "深度链接"], o=["edit", "review"])
R("DL.g2", T, None, None, "Links never carry secrets",
  "Links carry ids, never tokens, e-mail addresses or anything that grants access by itself; the app checks access "
  "after opening, as it does for any other request.",
  t=["link token", "magic link"], o=["edit", "review", "debug"], kind="app")
PAIR_COR("DL.pa", T, PA, "The link router of puffin-app",
         "puffin-app parses incoming links with string matching in application:openURL:options:.",
         "puffin-app routes every incoming link through PUFLinkRouter (Puffin/Links/): the patterns live in "
         "PUFLinkRoutes.plist and map to PUFScreenRoute values, and both continueUserActivity and openURL hand the URL "
         "to the router; nothing else parses link paths.",
         p=["Puffin/Links/**", "Puffin/AppDelegate.m", "Puffin/SceneDelegate.m"],
         t=["puflinkrouter", "continueuseractivity", "pufscreenroute"], o=["edit", "refactor", "debug"])
R("DL.pa.aasa", T, PA, None, "Paths are added on the website first",
  "puffin-app's apple-app-site-association file is served by the website and lists only the paths under /b/, /trip/ "
  "and /invoice/; a new path goes into the website first and into Puffin/Puffin.entitlements second.",
  p=["Puffin/Puffin.entitlements", "Puffin/Links/**"],
  t=["apple-app-site-association", "applinks", "associated domains"], o=["edit", "debug", "release"])
R("DL.pa.cold", T, PA, None, "A link at cold start waits for the login",
  "When a link arrives at cold start, puffin-app keeps it in PUFPendingLink until the login and the first sync are "
  "done and routes it then; a link is never dropped because the app was not ready.",
  p=["Puffin/Links/**"], t=["cold start", "pufpendinglink"], o=["edit", "debug"], kind="app")
R("DL.pa.test", T, PA, "operation-variant", "A table of URLs",
  "When testing link handling in puffin-app, add rows to the table in PuffinTests/Links/PUFLinkRouterTests.m (URL, "
  "expected route, logged in or not), including the old paths printed on QR stickers.",
  t=["puflinkroutertests", "expected route"], o=["test"])
R("DL.pa.zh", T, PA, None, "贴纸上的老链接一直要能用",
  "puffin-app 印在浮标贴纸上的二维码链接（/buoy/123 这种老格式）要一直能打开对应的浮标页，不能因为改了路径就失效。",
  t=["二维码", "老格式", "贴纸"], o=["edit", "refactor", "debug"])
R("DL.pa.tomb", T, PA, "tombstoned", "A puffin:// scheme",
  "puffin-app opens links through its own puffin:// URL scheme.",
  t=["puffin://"], o=["edit"], state="forgotten")
ONEOFF("DL.pa.x1", T, PA, "The link router of puffin-app",
       "For the boat show this weekend, make every link open the demo buoy, whatever the path says.")
R("DL.pa.ep", T, PA, "episode", "Three hundred stickers to the home screen",
  "A refactor renamed /buoy/ to /b/ in the router, and the QR stickers on 300 harbour buoys opened the home screen for "
  "a month before a harbour master complained. Old paths stay as aliases in PUFLinkRoutes.plist since then.",
  t=["renamed path", "harbour buoys"], also=[])
R("DL.pa.obs", T, PA, "observed", "Opens links from Notes and Messages",
  "Observed in puffin-app: the user tries new links by pasting them into Notes and Messages on a real device, once "
  "with the app installed and once after deleting it.",
  t=["notes and messages", "after deleting"], ph=["verify"], kind="app")
R("DL.pa.rev", T, PA, "phase-variant", "Every URL in the pull request",
  "In the review phase of puffin-app, a pull request that adds or changes a link lists every URL it handles and the "
  "screen each one opens.",
  t=["urls it handles"], ph=["review"])
R("DL.pa.sig", T, PA, "signal", "网页版跳转页要同步加",
  "以后 puffin-app 每加一条链接路径，都要同时在网站的跳转页里加上没装 App 时显示的网页版本。", kind="sig")
PAIR_SUP("DL.ob", T, OB, "Links in billing e-mails",
         "otter-billing's e-mails link to the invoice with a signed token in the URL so customers don't have to log "
         "in.",
         "otter-billing's e-mails link to https://marlow.example/invoice/{number} without any token, built only by "
         "LinkBuilder (src/main/groovy/otter/links/), never by concatenating strings in a template; the portal or "
         "puffin-app asks the customer to log in.",
         p=["src/main/groovy/otter/links/**", "grails-app/views/emails/**"], t=["linkbuilder", "signed token"],
         o=["edit", "refactor", "debug"])
R("DL.ob.zh", T, OB, None, "邮件链接只加两个 utm 参数",
  "otter-billing 邮件里的链接只加 utm_source 和 utm_campaign 两个参数，不要加客户 id 或发票金额。",
  t=["utm 参数", "邮件链接", "客户 id"], o=["edit", "review"])
R("DL.ob.tomb", T, OB, "tombstoned", "Links to the old portal",
  "otter-billing's e-mails link to portal-old.marlow.example.",
  t=["old portal"], o=["edit"], state="forgotten")
R("DL.ob.path", T, OB, "path-variant", "Paper letters print a short URL",
  "grails-app/views/letters/ renders the dunning letters that go out on paper; they print the short URL and a QR "
  "code, and have no clickable links at all.",
  p=["grails-app/views/letters/**"], t=["dunning letter", "short url"], o=["edit"])
ONEOFF("DL.ob.x1", T, OB, "Links in billing e-mails", "这批补发的发票邮件里先把链接指到测试环境，客户那边要先验收。")

# ---- map-tiles ---------------------------------------------------------------------------------
T = "map-tiles"
R("MT.g1", T, None, None, "XYZ tiles with the whole key",
  "Map tiles use the XYZ scheme in Web Mercator (EPSG:3857), 256 px at @1x and 512 px at @2x; a tile cache key holds "
  "the layer, style version, z, x, y and scale, so a style change never serves old tiles.",
  t=["map tiles", "tile cache", "zoom level", "瓦片"], o=["edit", "review", "debug"])
R("MT.g2", T, None, None, "Respect the tile provider",
  "Tiles from third-party servers are fetched with our own API key, cached no longer than the provider's terms "
  "allow, and always shown with the provider's attribution.",
  t=["tile provider", "attribution"], o=["edit", "review"], kind="app")
COPY("MT.pa.copy", "MT.g1", PA)
PAIR_COR("MT.pa", T, PA, "The offline tile store of puffin-app",
         "puffin-app caches tiles in NSURLCache.",
         "puffin-app keeps downloaded tiles in the MBTiles SQLite files of PUFTileStore (Puffin/Map/), one file per "
         "region the skipper downloads, capped at 2 GB with LRU eviction of regions not opened for 90 days; the "
         "online cache for browsing is separate and capped at 200 MB.",
         p=["Puffin/Map/**"], t=["mbtiles", "puftilestore", "offline region"], o=["edit", "refactor", "debug"])
R("MT.pa.fetch", T, PA, None, "Prefetch along the route on Wi-Fi",
  "puffin-app prefetches tiles along a planned route up to zoom 14 only on Wi-Fi or after the skipper confirms the "
  "estimated download size, and never while roaming.",
  p=["Puffin/Map/**"], t=["prefetch", "estimated size", "roaming"], o=["edit", "debug"], kind="app")
R("MT.pa.charts", T, PA, None, "Charts are a layer of their own",
  "puffin-app draws the licensed nautical charts as a separate layer (PUFChartLayer) whose tiles are never kept beyond "
  "the licence period, and it shows the chart edition date on the map.",
  p=["Puffin/Map/**"], t=["nautical charts", "chart edition", "licence period"], o=["edit", "review"])
R("MT.pa.test", T, PA, "operation-variant", "A fake tile server",
  "When testing tile code in puffin-app, run against PuffinTests/Map/PUFFakeTileServer, which serves numbered debug "
  "tiles and can make tiles slow or fail; tests never hit the production tile server.",
  t=["fake tile server", "numbered debug tiles"], o=["test"])
R("MT.pa.zh", T, PA, None, "缩放时先用低一级的瓦片顶上",
  "puffin-app 缩放时如果新一级的瓦片还没下载完，先把低一级的瓦片放大显示，不要露出空白格子。",
  t=["缩放", "空白格子", "低一级"], o=["edit", "debug"])
R("MT.pa.tomb", T, PA, "tombstoned", "Google tiles as the base map",
  "puffin-app shows Google Maps tiles as its base map.",
  t=["google tiles"], o=["edit"], state="forgotten")
ONEOFF("MT.pa.x1", T, PA, "The offline tile store of puffin-app",
       "Bundle the Solent region's tiles into this week's build so the sales team can demo offline.")
R("MT.pa.ep", T, PA, "episode", "Yesterday's storm on today's map",
  "The wave-height overlay was cached under z/x/y alone, so after a new model run skippers kept seeing yesterday's "
  "storm in the Channel for hours. The overlay's cache key includes the model run time since then.",
  t=["overlay cache", "model run time"], also=[])
R("MT.pa.obs", T, PA, "observed", "Pans slowly over tile edges",
  "Observed in puffin-app: after a map change the user pans slowly across tile boundaries at zoom 12-16 on an old "
  "iPhone SE, looking for seams and blank tiles.",
  t=["tile boundaries", "iphone se"], ph=["verify"], kind="app")
R("MT.pa.std", T, PA, "standing", "Charts are licensed per device",
  "puffin-app's nautical charts are licensed per device from the hydrographic office; never add a way to export or "
  "share chart tiles.")
R("MT.pa.path", T, PA, "path-variant", "The widget draws a snapshot",
  "PuffinWidget/ draws the home-screen widget from a single snapshot image that the app renders; it never loads tiles "
  "itself.",
  p=["PuffinWidget/**"], t=["widget snapshot"], o=["edit"])
PAIR_SUP("MT.ws", T, WS, "Sampling data tiles at their edges",
         "wren-shaders samples the data tile textures with linear filtering and repeat wrapping.",
         "wren-shaders samples data tiles (wave height, wind) with CLAMP_TO_EDGE and the one-texel border that the "
         "tile pipeline bakes in from the neighbouring tiles, so bilinear filtering is seamless across tile edges; "
         "shaders/tiles/tile_sample.glsl is the only code that computes tile texture coordinates.",
         p=["shaders/tiles/**", "shaders/common/**"], t=["clamp_to_edge", "one-texel border", "tile_sample.glsl"],
         o=["edit", "refactor", "debug"])
R("MT.ws.zh", T, WS, None, "数据瓦片存真实数值",
  "wren-shaders 里数据瓦片用 RG16F 纹理存真实数值，着色时再查色带；不能从渲染好的彩色瓦片反推数值。",
  t=["rg16f", "色带", "数据瓦片"], o=["edit", "review"])
R("MT.ws.tomb", T, WS, "tombstoned", "Data tiles as 8-bit PNG",
  "wren-shaders reads data tiles as 8-bit PNGs scaled to 0-255.",
  t=["8-bit png"], o=["edit"], state="forgotten")
R("MT.ws.plan", T, WS, "phase-variant", "Zoom range and format first",
  "When planning a new data layer for wren-shaders, fix its zoom range and its texture format per zoom in the plan, "
  "together with the number of tiles that implies.",
  t=["new data layer", "texture format"], ph=["plan"])
ONEOFF("MT.ws.x1", T, WS, "Sampling data tiles at their edges",
       "Switch the current layer to nearest filtering for today's screenshots, the marketing people want crisp cells.")
R("MT.ws.sig", T, WS, "signal", "Legend values for every layer",
  "From now on every data layer in wren-shaders comes with the legend values of its colour ramp in docs/layers.md.",
  kind="sig")

# ---- shader-code -------------------------------------------------------------------------------
T = "shader-code"
R("SH.g1", T, None, None, "Shaders are compiled offline",
  "Every shader is compiled offline in CI with glslangValidator for each target (GLSL ES 3.0, WebGL 2, Vulkan SPIR-V) "
  "and warnings fail the build; nothing is compiled for the first time on a user's device.",
  t=["shader", "glsl", "glslangvalidator", "着色器"], o=["edit", "review"])
R("SH.g2", T, None, None, "Declare precision",
  "Fragment shaders declare their precision explicitly (highp for positions and data values, mediump only for "
  "colours), because mobile GPUs really do compute mediump at half precision.",
  t=["precision qualifier", "mediump", "highp"], o=["edit", "debug"], kind="app")
PAIR_COR("SH.ws", T, WS, "Includes and variants in wren-shaders",
         "wren-shaders copies shared functions into every shader file and uses #ifdef blocks for variants.",
         "wren-shaders composes its shaders with the #include preprocessor tools/shaderpp.py: shared code lives in "
         "shaders/common/*.glsl, variants are declared in shaders/variants.toml, and the generated files under "
         "build/shaders/ are never edited or committed.",
         p=["shaders/**", "tools/**"], t=["shaderpp", "#include", "variants.toml"], o=["edit", "refactor"])
R("SH.ws.flow", T, WS, None, "Bounded loops, explicit LOD in branches",
  "Loops in wren-shaders' fragment shaders have compile-time bounds, and texture reads inside branches use "
  "textureLod or textureGrad, since implicit derivatives are undefined in non-uniform control flow.",
  p=["shaders/**"], t=["texturelod", "non-uniform control flow", "loop bounds"], o=["edit", "review", "debug"])
R("SH.ws.golden", T, WS, None, "Golden images within 2/255",
  "Shader changes in wren-shaders are checked against the golden images in tests/golden/, rendered by the headless "
  "SwiftShader runner with a per-pixel tolerance of 2/255; a golden is only updated in a commit of its own that says "
  "why.",
  p=["shaders/**", "tests/golden/**"], t=["golden images", "swiftshader", "per-pixel tolerance"],
  o=["edit", "test", "review"], kind="app")
R("SH.ws.test", T, WS, "operation-variant", "The compute harness for shader functions",
  "When testing a shader function in wren-shaders, call it through the compute harness in tests/unit/ (one SSBO of "
  "inputs, one of outputs) and compare with the Python reference in tests/unit/reference.py.",
  t=["compute harness", "ssbo", "reference.py"], o=["test"])
R("SH.ws.zh", T, WS, None, "uniform 和 varying 用统一前缀",
  "wren-shaders 里的 uniform 一律用 u_ 前缀，varying 用 v_ 前缀，并且和渲染端的绑定表 bindings.json 保持一致。",
  t=["u_ 前缀", "v_ 前缀", "bindings.json"], o=["edit", "refactor"])
R("SH.ws.tomb", T, WS, "tombstoned", "highp everywhere",
  "wren-shaders declares highp for every variable to be safe.",
  t=["highp everywhere"], o=["edit"], state="forgotten")
ONEOFF("SH.ws.x1", T, WS, "Includes and variants in wren-shaders", "这次演示先把海浪着色器里的泡沫效果关掉，老款 iPad 上帧率掉得太厉害。")
R("SH.ws.ep", T, WS, "episode", "Black squares on Mali phones",
  "The wind layer divided by a length that could be zero; Adreno and Apple GPUs quietly produced something harmless, "
  "Mali produced NaN, and Android users saw black squares over every calm patch of sea. Every division in a shader "
  "guards its denominator since then.",
  t=["black squares", "mali gpu", "division by zero"], also=["map-tiles"])
R("SH.ws.obs", T, WS, "observed", "A RenderDoc capture on the Pixel",
  "Observed in wren-shaders: for any change that might cost performance, the user captures a frame in RenderDoc on "
  "the Pixel 6a and notes the fragment shader time in the pull request.",
  t=["renderdoc", "pixel 6a"], ph=["verify", "review"], kind="app")
R("SH.ws.std", T, WS, "standing", "GLSL ES 3.0 and up only",
  "From now on wren-shaders targets GLSL ES 3.0 and newer only; nobody writes WebGL 1 fallbacks any more.", kind="sig")
R("SH.ws.path", T, WS, "path-variant", "Debug shaders may do anything",
  "shaders/debug/ holds the overdraw and tile-id visualisers of development builds; they may use unbounded loops and "
  "are never shipped.",
  p=["shaders/debug/**"], t=["overdraw", "tile-id visualiser"], o=["edit"])
R("SH.ws.rev", T, WS, "phase-variant", "Instruction counts before and after",
  "In the review phase of wren-shaders, the pull request shows the instruction and register counts from the Mali "
  "Offline Compiler before and after the change.",
  t=["mali offline compiler", "register counts"], ph=["review"])
PAIR_SUP("SH.pa", T, PA, "Loading shaders in puffin-app",
         "puffin-app compiles the GLSL sources at start-up with glCompileShader.",
         "puffin-app never compiles GLSL: it loads the Metal libraries that the build converts from wren-shaders' "
         "SPIR-V with spirv-cross (Scripts/build_shaders.sh), and PUFRenderer checks each library's wren version "
         "against the style it draws.",
         p=["Puffin/Render/**", "Scripts/**"], t=["spirv-cross", "metal library", "pufrenderer"],
         o=["edit", "refactor", "debug"])
R("SH.pa.zh", T, PA, None, "管线状态要提前建好",
  "puffin-app 的渲染管线状态要在地图出现之前预先创建好，不能等第一帧渲染时才编译，否则会明显卡顿。",
  p=["Puffin/Render/**"], t=["管线状态", "预先创建", "卡顿"], o=["edit", "debug"])
R("SH.pa.tomb", T, PA, "tombstoned", "OpenGL ES on iOS",
  "puffin-app keeps rendering with OpenGL ES on iOS.",
  t=["opengl es"], o=["edit"], state="forgotten")
ONEOFF("SH.pa.x1", T, PA, "Loading shaders in puffin-app",
       "Turn off the wave animation on the iPhone 8 in today's TestFlight build, it drops frames there.")

# ---- invoicing ---------------------------------------------------------------------------------
T = "invoicing"
R("IV.g1", T, None, None, "An issued invoice never changes",
  "An issued invoice is never edited or deleted: corrections are made with a credit note that refers to it, and "
  "invoice numbers run without gaps per issuing company and year.",
  t=["invoice", "credit note", "invoice number", "发票"], o=["edit", "review"])
R("IV.g2", T, None, None, "Say what a migration does to final rows",
  "On every migration, say in the changeset what it does to rows that must never change (issued invoices, credit "
  "notes, audit entries): they may gain columns with defaults, but their amounts, numbers and dates are never "
  "rewritten.",
  t=["changeset", "final rows"], o=["migrate"], trig=["migrate"])
R("IV.g3", T, None, None, "Render from the issue-time snapshot",
  "The PDF and the e-mail of an invoice are rendered from the snapshot stored when it was issued (address, prices, "
  "terms), never from today's customer or price records.",
  t=["invoice snapshot", "re-render"], o=["edit", "debug"], kind="app")
PAIR_COR("IV.ob", T, OB, "Invoice numbering in otter-billing",
         "otter-billing numbers invoices with their database id.",
         "otter-billing takes invoice numbers from InvoiceNumberService, which locks the invoice_sequence row of the "
         "issuing company and year (SELECT ... FOR UPDATE) inside the issuing transaction and formats numbers as "
         "MH-2025-000123; an issue that rolls back gives its number back, so there are no gaps.",
         p=["grails-app/services/otter/**", "grails-app/domain/otter/**"],
         t=["invoicenumberservice", "invoice_sequence"], o=["edit", "refactor", "debug"])
R("IV.ob.credit", T, OB, None, "Credit notes copy the lines",
  "A correction in otter-billing creates a CreditNote that copies the credited lines from the original invoice with "
  "negative quantities, and a new invoice if one is needed; InvoiceService.issue is the only code that sets the status "
  "ISSUED.",
  p=["grails-app/services/otter/**", "src/main/groovy/otter/invoicing/**"], t=["creditnote", "invoiceservice.issue"],
  o=["edit", "review"])
R("IV.ob.ubl", T, OB, None, "UBL for public-sector customers",
  "otter-billing sends invoices to public-sector customers as UBL 2.1 (Peppol BIS 3) from UblWriter, validated "
  "against the Peppol schematron in the build before anything is sent; the PDF is only an attachment.",
  p=["src/main/groovy/otter/invoicing/**"], t=["ubl 2.1", "peppol", "schematron"], o=["edit", "debug"], kind="app")
R("IV.ob.test", T, OB, "operation-variant", "Spock specs with a fixed clock",
  "When testing invoicing in otter-billing, write Spock specifications with the FixedClock trait and the sample "
  "accounts of src/test/resources/accounts/; no invoice date in a test depends on today's date.",
  t=["spock", "fixedclock"], o=["test"])
R("IV.ob.zh", T, OB, None, "开票日期和服务期间分开",
  "otter-billing 的发票上开票日期和服务期间是两个字段；数据订阅按服务期间计费，跨月的要按天拆分。",
  t=["服务期间", "开票日期", "按天拆分"], o=["edit", "debug"])
R("IV.ob.tomb", T, OB, "tombstoned", "Delete old drafts nightly",
  "otter-billing deletes draft invoices older than a week every night.",
  t=["draft cleanup"], o=["edit"], state="forgotten")
ONEOFF("IV.ob.x1", T, OB, "Invoice numbering in otter-billing",
       "Re-send the March invoices to Harbour Board Ltd with their new PO number on them, just this batch.")
R("IV.ob.ep", T, OB, "episode", "Two versions of one invoice",
  "An account's change of address showed up on invoices that had already been issued, because the PDF was rendered "
  "on the fly; their auditor found two different documents with the same invoice number. Invoices are rendered from "
  "their issue-time snapshot since then.",
  t=["two versions", "auditor"], also=[])
R("IV.ob.obs", T, OB, "observed", "Compares the month-end totals",
  "Observed in otter-billing: after a change to invoicing, the user runs the month-end report on the staging copy and "
  "compares its totals with last month's ledger export before merging.",
  t=["month-end report", "ledger export"], ph=["verify"], kind="app")
R("IV.ob.std", T, OB, "standing", "The finance controller approves billing logic",
  "Any change to how otter-billing calculates or issues invoices is approved by the finance controller before it is "
  "merged, and the approval is linked from the pull request.")
R("IV.ob.path", T, OB, "path-variant", "Imported invoices keep their old numbers",
  "src/main/groovy/otter/legacy/ imports the invoices of the old accounting system read-only for the archive; they "
  "keep their original numbers and are never re-issued.",
  p=["src/main/groovy/otter/legacy/**"], t=["legacy import", "old accounting system"], o=["edit"])
R("IV.ob.plan", T, OB, "phase-variant", "VAT treatment from the accountant",
  "When planning a new kind of charge in otter-billing, get its VAT treatment and ledger account from the accountant "
  "and write both into the plan.",
  t=["new charge", "vat treatment"], ph=["plan"])
R("IV.ob.sig", T, OB, "signal", "Invoice number on every log line",
  "Always put the invoice number on every log line and error report that otter-billing writes about an invoice.",
  kind="sig")
PAIR_SUP("IV.pa", T, PA, "Invoices in puffin-app",
         "puffin-app lays out invoices itself from the billing API's JSON.",
         "puffin-app shows an invoice as the PDF that otter-billing issued (PUFInvoiceViewController with PDFKit), and "
         "the list shows only number, date, amount and status from the API; the app never recalculates or "
         "re-lays-out an invoice.",
         p=["Puffin/Billing/**"], t=["pdfkit", "pufinvoiceviewcontroller"], o=["edit", "refactor", "debug"])
R("IV.pa.zh", T, PA, None, "金额按地区格式、按发票币种显示",
  "puffin-app 里发票金额用 NSNumberFormatter 按用户的地区格式显示，币种用发票上的币种，不要用设备地区的币种。",
  p=["Puffin/Billing/**"], t=["nsnumberformatter", "币种", "地区格式"], o=["edit"])
R("IV.pa.tomb", T, PA, "tombstoned", "Pay inside the app",
  "puffin-app takes invoice payments with Apple Pay inside the app.",
  t=["apple pay"], o=["edit"], state="forgotten")

# ---- chat-bots ---------------------------------------------------------------------------------
T = "chat-bots"
R("CB.g1", T, None, None, "Bots answer in the thread",
  "A chat bot replies in the thread of the message that asked, posts to the channel only what the whole channel needs, "
  "and never mentions @channel or @here.",
  t=["chat bot", "slack bot", "slash command", "机器人"], o=["edit", "review"])
R("CB.g2", T, None, None, "Acknowledge within three seconds",
  "A bot command acknowledges within three seconds and does the slow work afterwards, posting the result through the "
  "response URL; a failure is reported to the person who asked, with what to do next.",
  t=["response url", "three seconds", "acknowledge"], o=["edit", "debug"], kind="app")
COPY("CB.ob.copy", "CB.g1", OB)
PAIR_COR("CB.ob", T, OB, "How otterbot is put together",
         "otterbot handles every Slack event in one big controller action.",
         "otterbot (src/main/groovy/otter/bot/) checks every Slack request's signature in SlackSignatureInterceptor, "
         "dispatches slash commands through the CommandRegistry (one BotCommand class per command) and builds its "
         "replies with the Block Kit builders of BlockKit.groovy; no handler writes JSON by hand.",
         p=["src/main/groovy/otter/bot/**", "grails-app/controllers/otter/bot/**"],
         t=["otterbot", "commandregistry", "block kit"], o=["edit", "refactor", "debug"])
R("CB.ob.perm", T, OB, None, "Money commands check the finance group",
  "otterbot commands that show or change money (/invoice, /credit, /dunning-pause) first check that the Slack user is "
  "mapped to a member of the finance group in otter-billing, and every such command is written to the audit table.",
  p=["src/main/groovy/otter/bot/**"], t=["finance group", "/dunning-pause", "slack user mapping"],
  o=["edit", "review"])
R("CB.ob.deploy", T, OB, None, "The Slack manifest goes out with every deploy",
  "Every deploy of otter-billing re-applies slack/manifest.yml to the Slack app with `./gradlew slackManifest` and "
  "checks that the commands it lists match the CommandRegistry.",
  t=["slack/manifest.yml", "slackmanifest"], o=["deploy"], trig=["deploy"])
R("CB.ob.test", T, OB, "operation-variant", "Recorded Slack payloads",
  "When testing otterbot, post the recorded payloads of src/test/resources/slack/ to the controller with a valid test "
  "signature; the SlackClient is a stub, and tests never call the real Slack API.",
  t=["recorded payloads", "test signature"], o=["test"])
R("CB.ob.zh", T, OB, None, "机器人回复不带客户的联系方式",
  "otterbot 回复时只显示客户名称和发票号，客户的邮箱、电话和银行账号一律不显示，私信里也一样。",
  t=["客户邮箱", "银行账号", "私信"], o=["edit", "review"])
R("CB.ob.tomb", T, OB, "tombstoned", "Every invoice in #finance",
  "otterbot posts every issued invoice in #finance.",
  t=["post every invoice"], o=["edit"], state="forgotten")
ONEOFF("CB.ob.x1", T, OB, "How otterbot is put together", "今天月结，先让 otterbot 每小时在 #finance 里贴一次未付款总额，明天就关掉。")
R("CB.ob.ep", T, OB, "episode", "一晚上三千条消息",
  "有一次 Slack 响应慢，otterbot 的重试循环每次都重新发一遍催款汇总，#finance 一晚上收到了三千条消息；从那以后命令先确认"
  "再干活，并且按 X-Slack-Retry-Num 去重。",
  t=["重试循环", "x-slack-retry-num", "重复消息"], also=[])
R("CB.ob.obs", T, OB, "observed", "Tries commands in the sandbox workspace",
  "Observed in otter-billing: the user tries every new bot command in the marlow-sandbox Slack workspace, also as a "
  "user outside finance, before opening the pull request.",
  t=["sandbox workspace"], ph=["verify"], kind="app")
R("CB.ob.std", T, OB, "standing", "A person approves money",
  "From now on otterbot never moves money on its own: whatever it proposes (a credit, a pause of the reminders) waits "
  "for a person in finance to press approve.", kind="sig")
R("CB.ob.path", T, OB, "path-variant", "The Teams adapter is frozen",
  "src/main/groovy/otter/bot/teams/ is the Microsoft Teams adapter that one account's bookkeepers still use; it only "
  "gets fixes, and new commands are not added to it.",
  p=["src/main/groovy/otter/bot/teams/**"], t=["teams adapter", "microsoft teams"], o=["edit"])
R("CB.ob.rev", T, OB, "phase-variant", "A screenshot of every reply",
  "In the review phase of otter-billing, a change to a bot reply includes screenshots of the message from the sandbox "
  "workspace, in light and in dark mode.",
  t=["bot reply", "screenshots"], ph=["review"])
PAIR_SUP("CB.sm", T, SM, "Run reports from sedge-model",
         "sedge-model's run script posts the whole run log into #model-runs when a run ends.",
         "sedge-model's run scripts post one message per run to #model-runs through scripts/notify_chat.sh (a start "
         "message, then the end status edited into that same message, with a link to the log), and a failure "
         "mentions only the on-call forecasters' user group.",
         p=["scripts/**"], t=["notify_chat", "#model-runs", "run status"], o=["edit", "debug"])
R("CB.sm.zh", T, SM, None, "webhook 地址只放环境变量",
  "sedge-model 的聊天 webhook 地址只从环境变量 SEDGE_CHAT_WEBHOOK 读，不能写进脚本或 namelist 提交到仓库。",
  t=["webhook", "环境变量", "sedge_chat_webhook"], o=["edit", "review"])
R("CB.sm.tomb", T, SM, "tombstoned", "E-mail the run log",
  "sedge-model e-mails the run log to the whole team after every run.",
  t=["email run log"], o=["edit"], state="forgotten")

# ---- build-caching -----------------------------------------------------------------------------
T = "build-caching"
R("BK.g1", T, None, None, "A build step depends on its inputs only",
  "A build step's output depends only on its declared inputs: no timestamps, absolute paths, host names or network "
  "fetches without a pinned checksum, so that the build cache can be trusted.",
  t=["build cache", "cache key", "reproducible build", "构建缓存"], o=["edit", "review"])
R("BK.g2", T, None, None, "Look for undeclared inputs in every review",
  "On every review, point out anything that makes a build or test step depend on something it does not declare (the "
  "current time, an environment variable, a file outside its inputs), because it will poison the shared cache.",
  t=["undeclared input", "cache poisoning"], o=["review"], trig=["review"])
PAIR_COR("BK.ob", T, OB, "The Gradle build cache of otter-billing",
         "otter-billing switches the Gradle build cache off because it once served a stale jar.",
         "otter-billing uses the Gradle build cache with the remote node at cache.build.marlow.example: CI pushes, "
         "developer machines only pull, org.gradle.caching=true sits in gradle.properties, and a task that cannot be "
         "cached says why with @DisableCachingByDefault(because = ...).",
         p=["build.gradle", "settings.gradle", "gradle.properties", "buildSrc/**"],
         t=["gradle build cache", "remote cache", "@disablecachingbydefault"], o=["edit", "debug"])
R("BK.ob.inputs", T, OB, None, "Custom tasks declare their inputs",
  "Custom Gradle tasks in otter-billing's buildSrc declare every input and output with @InputFiles, @OutputDirectory "
  "and @PathSensitive(RELATIVE); a task that reads a file it did not declare is a bug even when the build passes.",
  p=["buildSrc/**", "build.gradle"], t=["@inputfiles", "@pathsensitive", "custom task"],
  o=["edit", "refactor", "review", "debug"], kind="app")
R("BK.ob.scan", T, OB, None, "Watch the hit rate in the build scans",
  "otter-billing's CI publishes a build scan for every build; a change that drops the main build's cache hit rate "
  "below 80 % is looked into before it is merged.",
  t=["build scan", "hit rate"], o=["debug", "review"])
R("BK.ob.test", T, OB, "operation-variant", "Tests stay cacheable",
  "When testing in otter-billing, keep the test tasks cacheable: no test reads the system clock, opens random ports "
  "without the TestPorts helper, or reads files outside src/test/resources.",
  t=["testports", "cacheable tests"], o=["test"])
R("BK.ob.zh", T, OB, None, "版本信息不要写进缓存的输出",
  "otter-billing 的构建不要把 git 提交号或构建时间写进 jar 的 manifest；版本信息放到单独的、不缓存的 writeBuildInfo 任务里。",
  t=["jar manifest", "构建时间", "writebuildinfo"], o=["edit", "debug"])
R("BK.ob.tomb", T, OB, "tombstoned", "A clean build on every run",
  "otter-billing's CI runs `./gradlew clean build` on every commit.",
  t=["clean build"], o=["edit"], state="forgotten")
ONEOFF("BK.ob.x1", T, OB, "The Gradle build cache of otter-billing",
       "Turn the remote cache off on CI for today, I want a clean timing of the full build for the infrastructure "
       "budget.")
R("BK.ob.ep", T, OB, "episode", "A jar from someone's laptop",
  "When developers could still push to the remote cache, a jar built with a local patch to the VAT tables went into "
  "the cache and CI picked it up for the next release. Only CI pushes since then.",
  t=["local patch", "developer push"], also=["invoicing"])
R("BK.ob.obs", T, OB, "observed", "Builds twice in fresh checkouts",
  "Observed in otter-billing: after changing a build script, the user runs `./gradlew build --build-cache` in two "
  "fresh checkouts in different directories and checks that the second run is all FROM-CACHE.",
  t=["from-cache", "fresh checkouts"], ph=["verify"], kind="app")
R("BK.ob.std", T, OB, "standing", "The build team owns the cache node",
  "otter-billing's remote cache node belongs to the build team: its size, retention and credentials are changed only "
  "through their repository, never from this one.")
R("BK.ob.path", T, OB, "path-variant", "The report project builds on its own",
  "reports/ is the Jasper report project, built by its own Maven wrapper outside the Gradle build and never cached; "
  "leave its build as it is.",
  p=["reports/**"], t=["jasper", "maven wrapper"], o=["edit"])
R("BK.ob.plan", T, OB, "phase-variant", "Note the build times first",
  "When planning a build change in otter-billing, note the current clean and cached build times from the build scans "
  "so that the effect can be measured afterwards.",
  t=["build times"], ph=["plan"])
PAIR_SUP("BK.sm", T, SM, "ccache for sedge-model",
         "sedge-model builds everything from scratch in CI every time.",
         "sedge-model builds with CMake and Ninja, with ccache as CMAKE_Fortran_COMPILER_LAUNCHER and the cache keyed "
         "on compiler version and build type; CI restores the ccache directory per branch and falls back to main's.",
         p=["CMakeLists.txt", "cmake/**", ".gitlab-ci.yml"], t=["ccache", "compiler launcher", "ninja"],
         o=["edit", "debug"])
R("BK.sm.zh", T, SM, None, ".mod 依赖交给 CMake",
  "sedge-model 的 Fortran .mod 文件依赖顺序交给 CMake 自己扫描，不要在 CMakeLists.txt 里手写 add_dependencies 来排顺序。",
  p=["CMakeLists.txt", "cmake/**"], t=[".mod 文件", "add_dependencies", "依赖顺序"], o=["edit", "refactor", "debug"])
R("BK.sm.tomb", T, SM, "tombstoned", "Commit the .mod files",
  "sedge-model commits the compiled .mod files so that builds are faster.",
  t=[".mod files"], o=["edit"], state="forgotten")
R("BK.sm.sig", T, SM, "signal", "升级编译器就清缓存",
  "以后 sedge-model 每次升级编译器版本，都要在 CI 里把 ccache 清一次，并在 CHANGELOG 里写明。", kind="sig")

# ---- core profile ------------------------------------------------------------------------------
T = "core"
R("core.bg.old", T, None, "superseded", "About me",
  "I'm a back-end developer; explain anything about mobile apps from scratch.", mtype="core-profile",
  mclass="user-fact")
R("core.bg", T, None, None, "About me",
  "I've written iOS apps in Objective-C for twelve years and the Grails billing side for the last three; Ada, Fortran "
  "and GLSL are new to me and I'm no oceanographer, so explain those and the physics, and skip iOS basics.",
  kind="cor:core.bg.old", mtype="core-profile", mclass="user-fact")
R("core.tz", T, None, None, "Where I work from",
  "I work from Falmouth on UK time; the model runs and the buoy clocks are on UTC, so give both when a time matters.",
  mtype="core-profile", mclass="user-fact")
R("core.zh1", T, None, None, "先说结论", "回答先说结论，再给代码，背景放在最后。",
  mtype="core-profile", mclass="user-preference")
R("core.zh2", T, None, None, "改动多就先列文件", "一次要改三个以上文件的时候，先列出要改哪些文件，等我确认了再动手。",
  mtype="core-profile", mclass="user-preference")
R("core.trip", T, None, "tombstoned", "On the research vessel",
  "I'm on the research vessel this week with a slow satellite link; keep answers short and don't link large files.",
  state="forgotten", mtype="core-profile", mclass="user-fact")
R("core.hb", T, HB, None, "My role in heron-buoy",
  "In heron-buoy I review and test; the firmware team flashes the buoys, so hand me changes as pull requests and never "
  "as steps to run against a deployed buoy.", mtype="core-profile", mclass="user-fact")

# ---- noise -------------------------------------------------------------------------------------
T = "noise"
for sym, proj, text in [
    ("N.g1", None, "Use British spelling in prose."),
    ("N.g2", None, "Spell out an abbreviation the first time it appears in an answer."),
    ("N.g3", None, "Put shell commands in a code block of their own, one command per line."),
    ("N.g4", None, "When comparing options, use a short table."),
    ("N.g5", None, "举例子的时候尽量用我们自己项目里的东西，不要用 foo 和 bar。"),
    ("N.hb", HB, "In heron-buoy a 'cycle' is the 10-minute schedule and a 'slot' is one consumer's turn in it."),
    ("N.sm", SM, "In sedge-model a 'run' is one forecast and a 'cycle' is the four runs of a day."),
    ("N.ws", WS, "wren-shaders calls the sea-state layers 'overlays' and the chart background 'the base'."),
    ("N.pa", PA, "In puffin-app copy, say 'skipper', not 'user'."),
    ("N.ob", OB, "In otter-billing an 'account' is the paying organisation and a 'contact' is a person at it."),
]:
    R(sym, T, proj, "noise", text.rstrip("."), text, mclass="user-preference")

# ---------------------------------------------------------------------------------------------
# Queries: (topic, project, lang, task, path, operation, phase, budget)
# ---------------------------------------------------------------------------------------------
OBs = "src/main/groovy/otter/"
Q = [
    # sensor-telemetry
    ("sensor-telemetry", HB, "en", "since the salinity field went in, the shore decodes buoy 14's messages as "
     "nonsense", "src/telemetry/telemetry-frames.adb", "debug", "build", None),
    ("sensor-telemetry", HB, "zh", "浮标断线几个小时再连上以后，最先发上来的全是老数据，岸上的曲线乱成一团",
     "src/telemetry/store-ring.adb", "debug", "build", None),
    ("sensor-telemetry", HB, "en", "we want dissolved oxygen in what the buoy reports too",
     "src/telemetry/telemetry-frames.ads", "edit", "plan", None),
    ("sensor-telemetry", HB, "en", "tests for encoding and decoding the new wave spectrum message",
     "tests/telemetry/test_wave_spectrum.adb", "test", "build", None),
    ("sensor-telemetry", HB, "en", "the twelve old buoys reboot when the shore asks them to resend a message",
     "src/telemetry/legacy/frame_v1.adb", "edit", None, None),
    ("sensor-telemetry", HB, "zh", "准备发 fw-v3.4，帮我过一遍发布前要做的事", None, "release", "release", 700),
    ("sensor-telemetry", SM, "en", "readings the QC marked bad still end up in the assimilation",
     "src/obs/obs_reader.f90", "debug", "build", None),
    ("sensor-telemetry", HB, "en", "the buoy throws away water temperatures below -3, I'd rather the shore saw them",
     "src/sensors/limits.adb", "edit", "build", None),
    # scientific-units
    ("scientific-units", SM, "en", "add a bottom friction coefficient to the physics namelist",
     "namelists/physics.nml", "edit", "build", None),
    ("scientific-units", SM, "zh", "新加的流速变量过不了 CF 检查", "src/io/netcdf_out.f90", "debug", "build", None),
    ("scientific-units", SM, "en", "the wave heights out of the old F77 routine come back a hundred times too big "
     "when the new driver calls it", "src/legacy/legacy_bridge.f90", "edit", "build", None),
    ("scientific-units", SM, "en", "write up the units of the new output variables in the user guide",
     "docs/output-variables.md", "docs", None, None),
    ("scientific-units", HB, "zh", "新的气压传感器接上了，把换算加到固件里", "src/units/pressure.ads", "edit", "build",
     None),
    ("scientific-units", HB, "en", "pressure on the shore plots is off by a factor of ten", "src/sensors/barometer.adb",
     "debug", "build", None),
    ("scientific-units", SM, "en", "review the new wind stress term", "src/physics/wind_stress.f90", "review",
     "review", None),
    ("scientific-units", SM, "zh", "波向输出统一成来向吧，现在有的变量是去向", "src/io/netcdf_out.f90", "refactor", None,
     None),
    ("scientific-units", SM, "en", "add a test that heat flux still comes out right when I feed it centimetres and "
     "hours", "tests/units/test_heat_flux.pf", "test", "build", None),
    # numerical-solvers
    ("numerical-solvers", SM, "en", "the run blows up around day 12 near the estuary mouth",
     "src/solver/implicit_step.f90", "debug", "build", None),
    ("numerical-solvers", SM, "zh", "垂直扩散那一步改成隐式的吧，现在时间步长被卡得太小了", "src/solver/implicit_step.f90",
     "refactor", "build", None),
    ("numerical-solvers", SM, "en", "thinking about a third-order tracer advection scheme; what would it take?", None,
     None, "plan", 900),
    ("numerical-solvers", SM, "en", "add a convergence test for the tridiagonal solve", "tests/mms/test_tridiag.pf",
     "test", "build", None),
    ("numerical-solvers", SM, "en", "wrap LAPACK's banded solver so the sediment module can call it",
     "src/solver/lapack/banded.f90", "edit", None, None),
    ("numerical-solvers", SM, "zh", "评审一下把压力求解器容差改成可配置的那个 PR", "src/solver/pressure_solve.f90", "review",
     "review", None),
    ("numerical-solvers", SM, "en", "the mixing routine is slow, profiler says cache misses", "src/physics/mixing.f90",
     "refactor", None, None),
    ("numerical-solvers", HB, "zh", "浮标的升沉估计一天下来能漂好几米", "src/motion/heave.adb", "debug", "build", None),
    ("numerical-solvers", SM, "en", "document how the solver tolerances were chosen", "docs/numerics.md", "docs", None,
     None),
    # audio-processing
    ("audio-processing", HB, "en", "recordings from the last service trip play back at the wrong pitch",
     "src/hydrophone/hydrophone-decimate.adb", "debug", "build", None),
    ("audio-processing", HB, "zh", "想把水听器采样率提到 96k，先看看对电池和存储有多大影响", None, None, "plan", 800),
    ("audio-processing", HB, "en", "a passing ship makes the recording clip; turn the gain down automatically",
     "src/hydrophone/hydrophone-gain.adb", "edit", "build", None),
    ("audio-processing", HB, "en", "add a test that sweeps a tone through the decimator",
     "tests/audio/test_decimator.adb", "test", "build", None),
    ("audio-processing", HB, "en", "the bench signal source should also be able to play white noise",
     "src/hydrophone/lab/tone_gen.adb", "edit", None, None),
    ("audio-processing", HB, "zh", "审一下把抽取滤波器阶数从 64 降到 32 的改动", "src/hydrophone/hydrophone-decimate.adb",
     "review", "review", None),
    ("audio-processing", PA, "en", "hydrophone clips stutter on older iPhones", "Puffin/Audio/PUFClipPlayer.m",
     "debug", "build", None),
    ("audio-processing", PA, "zh", "来电话以后录音就停了，挂了电话也不会接着放", "Puffin/Audio/PUFClipPlayer.m", "debug",
     None, None),
    ("audio-processing", HB, "en", "cut a firmware release with the new whale detector", None, "release", "release",
     600),
    # power-management
    ("power-management", HB, "en", "add the turbidity sensor to the cycle", "src/power/schedule_table.adb", "edit",
     "build", None),
    ("power-management", HB, "zh", "7 号浮标冬天电压掉到 11.5V 以后就不再发数据了", "src/power/power-modes.adb", "debug",
     "build", None),
    ("power-management", HB, "en", "the conductivity probe's first reading after a wake-up is junk",
     "src/drivers/ctd_probe.adb", "debug", "build", None),
    ("power-management", HB, "en", "simulation test for the bigger solar panel", "tests/power/test_winter_budget.adb",
     "test", "build", None),
    ("power-management", HB, "zh", "打算给浮标加一个摄像头，先评估一下能不能做", None, None, "plan", 600),
    ("power-management", HB, "en", "review the change that keeps the GPS powered between fixes",
     "src/drivers/gps.adb", "review", "review", None),
    ("power-management", PA, "en", "with anchor watch on, the phone is flat by morning", "Puffin/Location/PUFAnchorWatch.m",
     "debug", "build", None),
    ("power-management", PA, "zh", "手机开了省电模式，后台刷新还是把所有浮标都拉了一遍", "Puffin/Sync/PUFBackgroundRefresh.m",
     "edit", None, None),
    ("power-management", PA, "en", "rework the background location code for the new anchor watch",
     "Puffin/Location/PUFAnchorWatch.m", "refactor", "build", None),
    # push-notifications
    ("push-notifications", PA, "en", "tapping a gale warning opens the app but not the warning",
     "Puffin/Push/PUFPushCenter.m", "debug", "build", None),
    ("push-notifications", PA, "zh", "推送里想带上浮标的波高图，现在只有文字",
     "PuffinNotificationService/NotificationService.m", "edit", "build", None),
    ("push-notifications", PA, "en", "add a notification for when a buoy you follow goes offline",
     "Puffin/Push/PUFNotificationKind.h", "edit", "plan", None),
    ("push-notifications", PA, "en", "write tests for the new tide alert handling",
     "PuffinTests/Push/PUFTideAlertTests.m", "test", "build", None),
    ("push-notifications", PA, "en", "commit the fix for duplicate gale warnings", "Puffin/Push/PUFPushCenter.m",
     "commit", None, None),
    ("push-notifications", PA, "zh", "watch 上的推送文字被截断了", "PuffinWatch/NotificationController.m", "edit", None,
     None),
    ("push-notifications", OB, "en", "send a push when an invoice goes overdue", OBs + "push/OverdueNotifier.groovy",
     "edit", "build", None),
    ("push-notifications", OB, "zh", "周末也给客户推了催款通知，被投诉了", "grails-app/services/otter/DunningService.groovy",
     "debug", "build", None),
    ("push-notifications", PA, "en", "review the change that makes the marketing pushes time sensitive",
     "Puffin/Push/PUFPushCenter.m", "review", "review", None),
    # deep-links
    ("deep-links", PA, "en", "links from the website land on the start screen instead of the buoy page",
     "Puffin/Links/PUFLinkRouter.m", "debug", "build", 900),
    ("deep-links", PA, "zh", "从邮件点发票链接，App 没登录的时候链接就丢了", "Puffin/Links/PUFPendingLink.m", "debug",
     "build", None),
    ("deep-links", PA, "en", "add a link format for shared trips", "Puffin/Links/PUFLinkRoutes.plist", "edit", "plan",
     None),
    ("deep-links", PA, "en", "the buoy stickers still use /buoy/ paths; keep them working through the router "
     "rewrite", "Puffin/Links/PUFLinkRouter.m", "refactor", None, None),
    ("deep-links", PA, "en", "tests for links opened while logged out", "PuffinTests/Links/PUFLinkRouterTests.m",
     "test", "build", None),
    ("deep-links", PA, "zh", "/trip/ 开头的链接在 iOS 17 上不会唤起 App，只打开了网页", "Puffin/Puffin.entitlements", "edit",
     None, None),
    ("deep-links", OB, "en", "the invoice e-mail should take people straight to that invoice",
     "grails-app/views/emails/invoice.gsp", "edit", "build", None),
    ("deep-links", OB, "en", "put a QR code for the payment page on the printed reminder letters",
     "grails-app/views/letters/reminder.gsp", "edit", "build", None),
    ("deep-links", OB, "zh", "评审一下邮件里加追踪参数的改动", "grails-app/views/emails/reminder.gsp", "review", "review",
     None),
    # map-tiles
    ("map-tiles", PA, "en", "blank squares while zooming in over the harbour", "Puffin/Map/PUFMapView.m", "debug",
     "build", None),
    ("map-tiles", PA, "zh", "离线地图占了用户 5 个 G，加个上限", "Puffin/Map/PUFTileStore.m", "edit", "build", None),
    ("map-tiles", PA, "en", "prefetch the tiles for a planned passage", "Puffin/Map/PUFRoutePrefetch.m", "edit",
     "plan", None),
    ("map-tiles", PA, "en", "after the morning model run the wave layer still shows last night's storm",
     "Puffin/Map/PUFOverlayLayer.m", "debug", None, None),
    ("map-tiles", PA, "en", "commit my fix for the blank squares when zooming", "Puffin/Map/PUFMapView.m", "commit",
     None, None),
    ("map-tiles", PA, "zh", "home 屏小组件上想显示附近的地图", "PuffinWidget/PUFWidgetProvider.m", "edit", None, None),
    ("map-tiles", WS, "en", "visible seams in the wind layer at tile borders", "shaders/tiles/wind.frag", "debug",
     "build", None),
    ("map-tiles", WS, "zh", "要加一个海表温度图层，先规划一下", None, None, "plan", 700),
    ("map-tiles", PA, "en", "the harbour master wants to see on screen how current the charts are",
     "Puffin/Map/PUFChartLayer.m", "edit", "build", None),
    # shader-code
    ("shader-code", WS, "en", "the sea-state shader looks banded on Android phones", "shaders/sea/sea_state.frag",
     "debug", "build", None),
    ("shader-code", WS, "zh", "好几个图层各有一份一样的色带函数，抽成公共的", "shaders/common/colour_ramp.glsl", "refactor",
     None, None),
    ("shader-code", WS, "en", "add foam where the waves break", "shaders/sea/foam.frag", "edit", "build", None),
    ("shader-code", WS, "en", "unit tests for the new wind-speed-to-colour function", "tests/unit/test_wind_colour.py",
     "test", "build", None),
    ("shader-code", WS, "en", "review the new wave animation shader", "shaders/sea/wave_anim.vert", "review", "review",
     None),
    ("shader-code", WS, "zh", "开发版里想把每个瓦片的编号画出来，方便调试", "shaders/debug/tile_ids.frag", "edit", None, None),
    ("shader-code", WS, "en", "black patches over calm water on some phones", "shaders/tiles/wind.frag", "debug", None,
     None),
    ("shader-code", PA, "en", "the map stutters the first time it appears after launch", "Puffin/Render/PUFRenderer.m",
     "debug", "build", None),
    ("shader-code", PA, "zh", "wren-shaders 出了新版本，App 这边怎么接进来", None, "edit", None, None),
    # invoicing
    ("invoicing", OB, "en", "a customer wants their March invoice changed to their new address",
     "grails-app/services/otter/InvoiceService.groovy", "edit", "build", None),
    ("invoicing", OB, "zh", "两张发票的号码重复了，查一下怎么回事", "grails-app/services/otter/InvoiceNumberService.groovy",
     "debug", "build", None),
    ("invoicing", OB, "en", "add a po_number column to invoices", "grails-app/migrations/2025-03-po-number.groovy",
     "migrate", "build", None),
    ("invoicing", OB, "en", "a public-sector customer needs their invoices in the e-invoicing network format",
     OBs + "invoicing/UblWriter.groovy", "edit", None, None),
    ("invoicing", OB, "en", "tests for prorating a subscription that starts mid-month",
     "src/test/groovy/otter/ProrationSpec.groovy", "test", "build", None),
    ("invoicing", OB, "zh", "要开始收数据下载的流量费了，先规划一下", None, None, "plan", 800),
    ("invoicing", OB, "en", "review the change to how refunds are booked",
     "grails-app/services/otter/RefundService.groovy", "review", "review", None),
    ("invoicing", PA, "zh", "App 里的发票金额显示成了手机所在地区的货币", "Puffin/Billing/PUFInvoiceListViewController.m",
     "edit", None, None),
    ("invoicing", OB, "en", "invoices imported from the previous system show the wrong VAT",
     OBs + "legacy/LegacyInvoiceImport.groovy", "edit", None, None),
    # chat-bots
    ("chat-bots", OB, "en", "a Slack command that lists an account's open invoices",
     OBs + "bot/commands/OpenInvoicesCommand.groovy", "edit", "build", None),
    ("chat-bots", OB, "zh", "/credit 命令经常超时，Slack 那边显示 operation_timeout",
     OBs + "bot/commands/CreditCommand.groovy", "debug", "build", None),
    ("chat-bots", OB, "en", "the bot posted the same overdue summary five times last night",
     OBs + "bot/DunningSummaryJob.groovy", "debug", None, 1000),
    ("chat-bots", OB, "en", "tests for pausing reminders from Slack",
     "src/test/groovy/otter/bot/PauseRemindersSpec.groovy", "test", "build", None),
    ("chat-bots", OB, "en", "ship the bot changes to production", None, "deploy", "release", 600),
    ("chat-bots", OB, "zh", "Teams 那边也要能查发票", OBs + "bot/teams/TeamsAdapter.groovy", "edit", None, None),
    ("chat-bots", SM, "en", "the model runs channel gets a message for every timestep", "scripts/notify_chat.sh",
     "debug", "build", None),
    ("chat-bots", OB, "en", "review the new approval message the bot sends for credit notes",
     OBs + "bot/ApprovalMessage.groovy", "review", "review", None),
    # build-caching
    ("build-caching", OB, "en", "CI cache hits fell to 30% after yesterday's merge", "build.gradle", "debug", "build",
     None),
    ("build-caching", OB, "zh", "buildSrc 里新写的生成 OpenAPI 客户端的任务每次都重新跑",
     "buildSrc/src/main/groovy/GenerateClientTask.groovy", "debug", "build", None),
    ("build-caching", OB, "en", "show the git commit in the app's version endpoint, build.gradle has the version "
     "bits", "build.gradle", "edit", None, None),
    ("build-caching", OB, "en", "integration tests never come out of the cache on CI",
     "src/integration-test/groovy/otter/InvoiceFlowSpec.groovy", "test", None, None),
    ("build-caching", SM, "zh", "CI 上 sedge-model 每次都从头编译，要二十分钟", ".gitlab-ci.yml", "edit", "build", None),
    ("build-caching", SM, "en", "after the gfortran upgrade the build fails with a module version mismatch",
     "CMakeLists.txt", "debug", None, None),
    ("build-caching", OB, "en", "the report templates project doesn't build on the new CI runners", "reports/pom.xml",
     "edit", None, None),
    ("build-caching", OB, "zh", "计划把构建迁到新的缓存节点上，先列一下要做什么", None, None, "plan", 500),
]

RELATED = {t: [] for t in TOPICS}
for a, b in [("sensor-telemetry", "scientific-units"), ("numerical-solvers", "scientific-units"),
             ("push-notifications", "deep-links"), ("shader-code", "map-tiles"),
             ("power-management", "sensor-telemetry")]:
    RELATED[a].append(b)
    RELATED[b].append(a)

# Human judgement on top of the mechanical candidates: records that are applicable (nothing excludes them) but
# that a careful reader would not expect for this task, e.g. a phase-variant that is only "not excluded"
# because the request gives no phase, a rule about another part of the topic, or a related-topic rule about
# something else.  They are neither relevant nor forbidden.  Rules that fire on the request's operation
# (triggerOps) and standing rules of the topic (including live signal records without selectors) are never
# dropped.
NOT_EXPECTED = {
    "hq001": ["TL.g2", "TL.hb.buffer", "TL.hb.zh", "TL.hb.ep", "SU.g2", "SU.hb.zh", "PW.g2", "PW.hb.zh", "PW.hb.ep",
              "PW.hb.std"],
    "hq002": ["TL.g2", "TL.hb.zh", "SU.g2", "SU.hb.zh", "SU.hb.sig", "PW.g2", "PW.hb.zh", "PW.hb.ep", "PW.hb.std"],
    "hq003": ["TL.g2", "TL.hb.buffer", "TL.hb.zh", "TL.hb.ep", "SU.g2", "SU.hb.zh", "PW.g1", "PW.hb.copy",
              "PW.hb.zh", "PW.hb.ep", "PW.hb.std"],
    "hq004": ["TL.hb.ep", "SU.hb.sig", "PW.hb.test", "PW.hb.ep", "PW.hb.std"],
    "hq005": ["TL.g1", "TL.g2", "TL.hb.copy", "TL.hb.qc", "TL.hb.zh", "TL.hb.ep", "TL.hb.obs", "TL.hb.plan", "SU.g1",
              "SU.g2", "SU.hb.zh", "SU.hb.sig", "PW.g1", "PW.hb.copy", "PW.hb.zh", "PW.hb.ep", "PW.hb.obs",
              "PW.hb.std", "PW.hb.plan"],
    "hq006": ["TL.hb.ep", "SU.hb.sig", "PW.hb.std"],
    "hq007": ["TL.sm.zh", "SU.g2", "SU.sm.ep", "SU.sm.std", "PW.g2"],
    "hq008": ["TL.g1", "TL.hb.copy", "TL.hb.zh", "TL.hb.ep", "SU.g1", "SU.g2", "SU.hb", "SU.hb.zh", "SU.hb.sig",
              "PW.g1", "PW.hb.copy", "PW.hb", "PW.hb.zh", "PW.hb.ep", "PW.hb.std"],
    "hq009": ["TL.g1", "TL.g2", "SU.g2", "SU.sm.zh", "NS.g1", "NS.sm.copy", "NS.sm.zh", "NS.sm.ep", "NS.sm.obs",
              "NS.sm.std", "NS.sm.sig"],
    "hq010": ["TL.g2", "SU.g2", "SU.sm.nml", "SU.sm.ep", "NS.g2", "NS.sm.ep", "NS.sm.obs", "NS.sm.std", "NS.sm.sig"],
    "hq011": ["TL.g1", "TL.g2", "SU.g2", "SU.sm", "SU.sm.zh", "SU.sm.ep", "NS.g1", "NS.sm.copy", "NS.sm.arrays",
              "NS.sm.zh", "NS.sm.ep", "NS.sm.obs", "NS.sm.std", "NS.sm.sig"],
    "hq012": ["SU.sm.ep", "SU.sm.obs", "NS.sm.ep", "NS.sm.obs", "NS.sm.std", "NS.sm.plan", "NS.sm.sig"],
    "hq013": ["TL.g1", "TL.g2", "TL.hb.copy", "TL.hb.zh", "TL.hb.ep", "TL.hb.std", "SU.g2", "NS.g1"],
    "hq014": ["TL.g2", "TL.hb.zh", "TL.hb.ep", "TL.hb.std", "SU.g2", "NS.g2"],
    "hq015": ["TL.g1", "SU.sm.ep", "NS.g1", "NS.g2", "NS.sm.copy", "NS.sm.zh", "NS.sm.ep", "NS.sm.std", "NS.sm.sig"],
    "hq016": ["SU.sm", "SU.sm.ep", "SU.sm.obs", "SU.sm.rev", "NS.sm.arrays", "NS.sm.ep", "NS.sm.obs", "NS.sm.std",
              "NS.sm.plan", "NS.sm.sig"],
    "hq017": ["SU.sm.ep", "NS.sm.test", "NS.sm.ep", "NS.sm.obs", "NS.sm.std", "NS.sm.sig"],
    "hq018": ["SU.g2", "SU.sm.ep", "SU.sm.std", "NS.g2", "NS.sm.ep"],
    "hq019": ["SU.g2", "SU.sm", "SU.sm.zh", "SU.sm.ep", "SU.sm.std", "NS.sm.arrays", "NS.sm.ep", "NS.sm.obs"],
    "hq020": ["SU.g1", "SU.g2", "SU.sm", "SU.sm.nml", "SU.sm.docs", "SU.sm.out", "SU.sm.test", "SU.sm.zh",
              "SU.sm.ep", "SU.sm.obs", "SU.sm.std", "SU.sm.path", "NS.g1", "NS.g2", "NS.sm.copy", "NS.sm.arrays",
              "NS.sm.zh", "NS.sm.ep", "NS.sm.path"],
    "hq021": ["SU.sm.test", "SU.sm.ep", "SU.sm.std", "NS.sm.ep", "NS.sm.obs"],
    "hq022": ["SU.g1", "SU.g2", "SU.sm", "SU.sm.zh", "SU.sm.ep", "SU.sm.obs", "SU.sm.std", "SU.sm.rev", "NS.g1",
              "NS.sm.copy", "NS.sm", "NS.sm.cfl", "NS.sm.arrays", "NS.sm.zh", "NS.sm.ep", "NS.sm.obs", "NS.sm.plan"],
    "hq023": ["SU.g1", "SU.sm.ep", "SU.sm.obs", "SU.sm.std", "SU.sm.rev", "NS.g2", "NS.sm.zh"],
    "hq024": ["SU.g2", "SU.sm", "SU.sm.zh", "SU.sm.ep", "SU.sm.obs", "SU.sm.std", "SU.sm.rev", "NS.sm", "NS.sm.ep",
              "NS.sm.obs", "NS.sm.plan"],
    "hq025": ["SU.g2", "SU.hb.zh", "SU.hb.sig", "NS.g2"],
    "hq026": ["SU.sm.ep", "SU.sm.obs", "SU.sm.std", "SU.sm.rev", "NS.sm.ep", "NS.sm.obs", "NS.sm.plan"],
    "hq027": ["AU.g2"],
    "hq028": ["AU.g2", "AU.hb.gain", "AU.hb.test", "AU.hb.ep", "AU.hb.path"],
    "hq029": ["AU.g1", "AU.g2", "AU.hb.zh", "AU.hb.ep"],
    "hq030": ["AU.hb.ep"],
    "hq031": ["AU.g1", "AU.g2", "AU.hb", "AU.hb.gain", "AU.hb.zh", "AU.hb.ep", "AU.hb.obs", "AU.hb.rev"],
    "hq032": ["AU.g1", "AU.g2", "AU.hb.gain"],
    "hq033": ["AU.g1", "AU.pa.zh"],
    "hq034": ["AU.g1", "AU.g2"],
    "hq035": ["AU.hb.ep"],
    "hq036": ["TL.g1", "TL.g2", "TL.hb.copy", "TL.hb.zh", "TL.hb.ep", "TL.hb.std", "PW.hb.low", "PW.hb.zh",
              "PW.hb.ep"],
    "hq037": ["TL.g2", "TL.hb.zh", "TL.hb.ep", "TL.hb.std", "PW.g2", "PW.hb.rails", "PW.hb.zh", "PW.hb.ep"],
    "hq038": ["TL.g2", "TL.hb.zh", "TL.hb.ep", "TL.hb.std", "PW.g2", "PW.hb.zh", "PW.hb.ep"],
    "hq039": ["TL.hb.test", "TL.hb.ep", "TL.hb.std", "PW.hb.ep"],
    "hq040": ["TL.g1", "TL.g2", "TL.hb.copy", "TL.hb", "TL.hb.qc", "TL.hb.buffer", "TL.hb.rel", "TL.hb.test",
              "TL.hb.zh", "TL.hb.ep", "TL.hb.std", "TL.hb.path", "PW.g2", "PW.hb.low", "PW.hb.rails", "PW.hb.test",
              "PW.hb.zh", "PW.hb.ep", "PW.hb.path"],
    "hq041": ["TL.g1", "TL.hb.copy", "TL.hb.ep", "TL.hb.std"],
    "hq042": ["TL.g2", "PW.pa.zh"],
    "hq043": ["TL.g1", "TL.g2"],
    "hq045": ["PN.pa.ep", "DL.g2", "DL.pa.zh", "DL.pa.ep", "DL.pa.sig"],
    "hq046": ["PN.g1", "PN.pa.zh", "PN.pa.ep", "DL.g1", "DL.g2", "DL.pa.zh", "DL.pa.ep", "DL.pa.sig"],
    "hq047": ["PN.pa.ep", "DL.g1", "DL.g2", "DL.pa.zh", "DL.pa.ep", "DL.pa.sig"],
    "hq048": ["PN.pa.ep", "DL.pa.test", "DL.pa.ep", "DL.pa.sig"],
    "hq049": ["PN.pa.obs", "PN.pa.plan", "DL.pa.ep", "DL.pa.obs", "DL.pa.rev", "DL.pa.sig"],
    "hq050": ["PN.g1", "PN.g2", "PN.pa.zh", "PN.pa.ep", "PN.pa.obs", "PN.pa.plan", "DL.g1", "DL.g2", "DL.pa.zh",
              "DL.pa.ep", "DL.pa.obs", "DL.pa.rev", "DL.pa.sig"],
    "hq051": ["DL.g1", "DL.g2", "DL.ob.zh"],
    "hq052": ["PN.g2", "DL.g2"],
    "hq053": ["PN.pa.ep", "DL.g1", "DL.g2", "DL.pa.ep", "DL.pa.rev", "DL.pa.sig"],
    "hq054": ["PN.g2", "PN.pa.ep", "PN.pa.std", "DL.g2", "DL.pa.cold"],
    "hq055": ["PN.g2", "PN.pa.ep", "PN.pa.std", "DL.pa.aasa", "DL.pa.zh", "DL.pa.ep"],
    "hq056": ["PN.g1", "PN.g2", "PN.pa.zh", "PN.pa.ep", "PN.pa.std", "PN.pa.plan", "DL.pa.cold", "DL.pa.zh",
              "DL.pa.ep"],
    "hq057": ["PN.pa.ep", "PN.pa.obs", "PN.pa.std", "PN.pa.plan", "DL.pa.obs", "DL.pa.rev"],
    "hq058": ["PN.pa.test", "PN.pa.ep", "PN.pa.std", "DL.pa.ep"],
    "hq059": ["PN.g1", "PN.g2", "PN.pa.zh", "PN.pa.ep", "PN.pa.obs", "PN.pa.std", "PN.pa.plan", "DL.g2", "DL.pa.zh",
              "DL.pa.ep", "DL.pa.rev"],
    "hq060": ["PN.g1", "PN.g2", "PN.ob.zh"],
    "hq061": ["PN.g1", "PN.g2", "PN.ob.zh", "DL.ob.zh"],
    "hq062": ["PN.g1", "PN.ob.zh", "DL.g1"],
    "hq063": ["MT.g1", "MT.pa.copy", "MT.pa", "MT.pa.fetch", "MT.pa.ep", "SH.g2"],
    "hq064": ["MT.g1", "MT.pa.copy", "MT.pa.fetch", "MT.pa.zh", "MT.pa.ep", "SH.g1", "SH.g2"],
    "hq065": ["MT.g1", "MT.pa.copy", "MT.pa.charts", "MT.pa.zh", "MT.pa.ep", "SH.g1", "SH.g2"],
    "hq066": ["MT.pa", "MT.pa.fetch", "MT.pa.zh", "MT.pa.obs", "SH.g2"],
    "hq067": ["MT.pa.ep"],
    "hq068": ["MT.g1", "MT.pa.copy", "MT.pa.zh", "MT.pa.ep", "MT.pa.obs", "SH.g1", "SH.g2"],
    "hq069": ["MT.g1", "SH.g2", "SH.ws.flow", "SH.ws.ep", "SH.ws.std"],
    "hq070": ["MT.g2", "SH.g1", "SH.g2", "SH.ws", "SH.ws.flow", "SH.ws.golden", "SH.ws.test", "SH.ws.zh", "SH.ws.ep",
              "SH.ws.std", "SH.ws.path"],
    "hq071": ["MT.g1", "MT.pa.copy", "MT.pa", "MT.pa.fetch", "MT.pa.zh", "MT.pa.ep", "SH.g1", "SH.g2"],
    "hq072": ["MT.g1", "MT.ws.sig", "SH.ws.flow"],
    "hq073": ["MT.ws", "MT.ws.plan", "SH.ws.zh", "SH.ws.ep", "SH.ws.obs", "SH.ws.rev"],
    "hq074": ["MT.g1", "MT.g2", "MT.ws.zh", "MT.ws.sig", "SH.ws.ep"],
    "hq075": ["MT.ws.sig", "SH.ws.ep"],
    "hq076": ["MT.g1", "MT.g2", "MT.ws.zh", "MT.ws.sig", "SH.ws.ep"],
    "hq077": ["MT.g1", "MT.g2", "MT.ws.zh", "MT.ws.plan", "MT.ws.sig", "SH.g2", "SH.ws", "SH.ws.flow",
              "SH.ws.golden", "SH.ws.zh", "SH.ws.ep", "SH.ws.obs", "SH.ws.rev"],
    "hq078": ["MT.g1", "MT.ws", "MT.ws.plan", "MT.ws.sig", "SH.g2", "SH.ws.flow", "SH.ws.obs", "SH.ws.rev"],
    "hq079": ["MT.g1", "MT.pa.copy", "MT.pa.zh", "MT.pa.ep", "MT.pa.std", "SH.g2"],
    "hq080": ["MT.g1", "MT.g2", "MT.pa.copy", "MT.pa", "MT.pa.fetch", "MT.pa.charts", "MT.pa.zh", "MT.pa.ep",
              "MT.pa.obs", "MT.pa.std", "MT.pa.path", "SH.g2", "SH.pa.zh"],
    "hq081": ["IV.ob", "IV.ob.zh", "BK.ob.ep"],
    "hq082": ["IV.g3", "IV.ob.zh", "IV.ob.ep", "BK.ob.ep"],
    "hq083": ["IV.ob.ep", "BK.ob.ep"],
    "hq084": ["IV.g1", "IV.ob.credit", "IV.ob.zh", "IV.ob.ep", "IV.ob.obs", "IV.ob.plan", "BK.ob.ep"],
    "hq085": ["IV.ob.ep", "BK.ob.ep"],
    "hq086": ["IV.g2", "IV.g3", "IV.ob", "IV.ob.credit", "IV.ob.ubl", "IV.ob.test", "IV.ob.ep", "IV.ob.path",
              "BK.ob.ep"],
    "hq087": ["IV.ob.ep", "BK.ob.ep"],
    "hq088": ["IV.g1", "IV.g3"],
    "hq089": ["IV.g3", "IV.ob.zh", "IV.ob.ep", "IV.ob.obs", "IV.ob.plan", "BK.ob.ep"],
    "hq090": ["CB.ob.ep"],
    "hq092": ["CB.ob", "CB.ob.obs", "CB.ob.rev"],
    "hq093": ["CB.ob.ep"],
    "hq094": ["CB.ob.ep"],
    "hq095": ["CB.g1", "CB.g2", "CB.ob.copy", "CB.ob", "CB.ob.ep", "CB.ob.obs", "CB.ob.rev"],
    "hq096": ["CB.g2"],
    "hq097": ["CB.ob.ep"],
    "hq098": ["BK.ob.ep"],
    "hq099": ["BK.ob.scan", "BK.ob.zh", "BK.ob.ep"],
    "hq100": ["BK.ob", "BK.ob.inputs", "BK.ob.ep", "BK.ob.obs", "BK.ob.plan"],
    "hq101": ["BK.ob.obs", "BK.ob.ep", "BK.ob.plan"],
    "hq104": ["BK.g1", "BK.ob.zh", "BK.ob.ep", "BK.ob.obs", "BK.ob.plan"],
    "hq105": ["BK.g2", "BK.ob.inputs", "BK.ob.test", "BK.ob.zh", "BK.ob.ep", "BK.ob.path"],
}
# ---------------------------------------------------------------------------------------------
# Mechanical parts
# ---------------------------------------------------------------------------------------------
def build_records():
    sym2key = {}
    for i, r in enumerate(RECS, 1):
        if r["sym"] in sym2key:
            sys.exit("duplicate sym " + r["sym"])
        sym2key[r["sym"]] = "h%04d" % i
    replaced = set()
    for r in RECS:
        if ":" in r["kind"]:
            replaced.add(r["kind"].split(":", 1)[1])
    out = []
    for r in RECS:
        kind = r["kind"]
        if kind == "rem":
            load = {"op": "remember"}
        elif kind == "app":
            load = {"op": "apply"}
        elif kind == "sig":
            load = {"op": "signal"}
        else:
            op, of = kind.split(":", 1)
            load = {"op": "correct" if op == "cor" else "supersede", "of": sym2key[of]}
        state = r["state"]
        if r["sym"] in replaced:
            state = "superseded"
        authority = "inferred" if load["op"] in ("apply", "supersede") else "explicit"
        scope = "global" if r["project"] is None else "project"
        mtype = r["mtype"]
        mclass = r["mclass"]
        if r["trap"] in ("episode", "one-off"):
            mtype = mtype or "personal-episode"
            mclass = mclass or "collaboration-habit"
        elif r["trap"] == "observed":
            mclass = mclass or "collaboration-habit"
        mtype = mtype or "collaboration-policy"
        mclass = mclass or ("project-agreement" if scope == "project" else "user-preference")
        rec = {
            "key": sym2key[r["sym"]], "topic": r["topic"], "project": r["project"], "scope": scope,
            "memoryType": mtype, "memoryClass": mclass, "authority": authority,
            "title": r["title"], "text": r["text"],
            "selectors": {"paths": r["p"], "tasks": r["t"], "operations": r["o"], "phases": r["ph"]},
            "state": state, "load": load, "trap": r["trap"], "triggerOps": r["trig"],
        }
        if r["trap"] == "episode":
            rec["also"] = r["also"] or []
        out.append(rec)
    return out, sym2key


def path_matches(patterns, path):
    return pathspec.PathSpec.from_lines("gitwildmatch", patterns).match_file(path)


def forbidden_kind(rec, q):
    if rec["state"] == "superseded":
        return "superseded"
    if rec["state"] == "forgotten":
        return "tombstoned"
    if rec["state"] == "one-off":
        return "one-off"
    if rec["scope"] == "project" and rec["project"] != q["project"]:
        return "other-repo"
    s = rec["selectors"]
    if s["paths"] and q["path"] is not None and not path_matches(s["paths"], q["path"]):
        return "path-mismatch"
    if s["operations"] and q["operation"] is not None and q["operation"].lower() not in [o.lower() for o in s["operations"]]:
        return "operation-mismatch"
    if s["phases"] and q["phase"] is not None and q["phase"].lower() not in [p.lower() for p in s["phases"]]:
        return "phase-mismatch"
    return None


def is_standing_like(rec):
    s = rec["selectors"]
    return (rec["state"] == "live" and rec["authority"] == "explicit" and rec["scope"] == "project"
            and rec["memoryType"] == "collaboration-policy"
            and not (s["paths"] or s["tasks"] or s["operations"] or s["phases"]))


def core_profile(records, project):
    return [r["key"] for r in records
            if r["memoryType"] == "core-profile" and r["state"] == "live"
            and (r["scope"] == "global" or r["project"] == project)]


def grade(rec, q):
    """README labels: 2 explicit rule of the topic; 1 inferred rule of the topic, rule of a related topic
    (or an episode whose `also` names the topic), or a rule that fires on the request's operation."""
    if rec["topic"] in ("core", "noise"):
        return 0
    g = 0
    if rec["topic"] == q["topic"]:
        g = 2 if rec["authority"] == "explicit" else 1
    elif rec["topic"] in RELATED.get(q["topic"], []) or q["topic"] in rec.get("also", []):
        g = 1
    if q["operation"] and q["operation"] in rec["triggerOps"]:
        g = max(g, 1)
    return g


def build_queries(records, sym2key):
    key2sym = {v: k for k, v in sym2key.items()}
    for qk, syms in NOT_EXPECTED.items():
        for sym in syms:
            if sym not in sym2key:
                sys.exit("NOT_EXPECTED %s: unknown record %s" % (qk, sym))
    used = set()
    out = []
    for i, (topic, project, lang, task, path, op, phase, budget) in enumerate(Q, 1):
        q = {"key": "hq%03d" % i, "topic": topic, "project": project, "lang": lang, "task": task,
             "path": path, "operation": op, "phase": phase, "contextBudget": budget or DEFAULT_BUDGET}
        forbidden, relevant = {}, {}
        for r in records:
            k = forbidden_kind(r, q)
            if k:
                forbidden[r["key"]] = k
                continue
            g = grade(r, q)
            if g and key2sym[r["key"]] in NOT_EXPECTED.get(q["key"], ()):
                if q["operation"] in r["triggerOps"] or (is_standing_like(r) and r["topic"] == q["topic"]):
                    sys.exit("%s: may not drop %s" % (q["key"], key2sym[r["key"]]))
                used.add((q["key"], key2sym[r["key"]]))
                continue
            if g:
                relevant[r["key"]] = g
        q["relevant"] = relevant
        q["forbidden"] = forbidden
        q["coreProfile"] = core_profile(records, project)
        out.append(q)
    stale = {(qk, sym) for qk, syms in NOT_EXPECTED.items() for sym in syms} - used
    if stale:
        sys.exit("NOT_EXPECTED entries that are not candidates: %s" % sorted(stale))
    return out


def build_session_start(records):
    out = []
    for i, p in enumerate(PROJECT_NAMES, 1):
        out.append({"key": "ss%02d" % i, "project": p,
                    "mustKnow": [r["key"] for r in records if r["project"] == p and is_standing_like(r)],
                    "coreProfile": core_profile(records, p)})
    # a second session in the project with the most records
    biggest = collections.Counter(r["project"] for r in records if r["project"]).most_common(1)[0][0]
    first = next(s for s in out if s["project"] == biggest)
    out.append({"key": "ss%02d" % (len(out) + 1), "project": biggest,
                "mustKnow": list(first["mustKnow"]), "coreProfile": list(first["coreProfile"])})
    return out


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------
def validate(ds):
    errs = []
    recs, qs = ds["records"], ds["queries"]
    byk = {r["key"]: r for r in recs}
    if len(byk) != len(recs):
        errs.append("duplicate record keys")
    if len({q["key"] for q in qs}) != len(qs):
        errs.append("duplicate query keys")
    if len({p["remote"] for p in ds["projects"]}) != len(ds["projects"]):
        errs.append("remotes not unique")
    pass_of = {"remember": 1, "apply": 1, "signal": 1, "correct": 2, "supersede": 2}
    pos = {r["key"]: i for i, r in enumerate(recs)}
    replaced = collections.Counter()
    for r in recs:
        op = r["load"]["op"]
        if op not in pass_of:
            errs.append(r["key"] + " bad op")
            continue
        for dim, vals in r["selectors"].items():
            if dim not in ("paths", "tasks", "operations", "phases") or not isinstance(vals, list) or \
                    not all(isinstance(v, str) and v for v in vals):
                errs.append(r["key"] + " bad selector " + dim)
        for o in r["selectors"]["operations"] + r["triggerOps"]:
            if o not in OPS:
                errs.append(r["key"] + " unknown op " + o)
        for ph in r["selectors"]["phases"]:
            if ph not in PHASES:
                errs.append(r["key"] + " unknown phase " + ph)
        for o in r["triggerOps"]:
            if o not in r["selectors"]["operations"]:
                errs.append(r["key"] + " triggerOp not in operations")
        if (r["scope"] == "global") != (r["project"] is None):
            errs.append(r["key"] + " scope/project mismatch")
        if r["project"] is not None and r["project"] not in PROJECT_NAMES:
            errs.append(r["key"] + " unknown project")
        exp_auth = "inferred" if op in ("apply", "supersede") else "explicit"
        if r["authority"] != exp_auth:
            errs.append(r["key"] + " authority inconsistent with load")
        if op in ("correct", "supersede"):
            of = r["load"].get("of")
            if of not in byk:
                errs.append(r["key"] + " load.of missing")
                continue
            if pass_of[byk[of]["load"]["op"]] >= pass_of[op]:
                errs.append(r["key"] + " load.of not loaded in an earlier pass")
            if pos[of] > pos[r["key"]]:
                errs.append(r["key"] + " load.of after it in file")
            if op == "supersede" and byk[of]["load"]["op"] != "apply":
                errs.append(r["key"] + " supersede of a non-applied record")
            if op == "correct" and byk[of]["load"]["op"] not in ("remember", "apply"):
                errs.append(r["key"] + " correct of odd record")
            replaced[of] += 1
            if r["state"] != "live":
                errs.append(r["key"] + " replacement not live")
            if (r["project"], r["scope"]) != (byk[of]["project"], byk[of]["scope"]):
                errs.append(r["key"] + " replacement changes project")
            if op == "correct" and r["selectors"] != byk[of]["selectors"]:
                errs.append(r["key"] + " correct changed selectors")
        st = r["state"]
        if st == "one-off" and (op != "signal" or r["trap"] != "one-off"):
            errs.append(r["key"] + " one-off inconsistent")
        if op == "signal" and st not in ("live", "one-off"):
            errs.append(r["key"] + " signal state")
        if op == "signal" and st == "live" and any(r["selectors"].values()):
            errs.append(r["key"] + " live signal with selectors")
        if st == "forgotten" and op not in ("remember", "apply"):
            errs.append(r["key"] + " forgotten odd op")
        if (st == "forgotten") != (r["trap"] == "tombstoned"):
            errs.append(r["key"] + " tombstoned trap/state")
        if r["trap"] == "standing" and not (is_standing_like(r) and op in ("remember", "signal")):
            errs.append(r["key"] + " standing rule not standing-like")
        if r["trap"] == "signal" and not (op == "signal" and st == "live"):
            errs.append(r["key"] + " signal trap")
        if r["trap"] == "noise" and any(r["selectors"].values()):
            errs.append(r["key"] + " noise with selectors")
    for r in recs:
        sup = r["state"] == "superseded"
        if sup != (replaced[r["key"]] == 1):
            errs.append(r["key"] + " superseded state vs replacements")
        if sup and r["trap"] != "superseded":
            errs.append(r["key"] + " superseded trap")
    for q in qs:
        if q["project"] not in PROJECT_NAMES:
            errs.append(q["key"] + " project")
        if q["path"] is not None and (q["path"].startswith("/") or q["path"].startswith("./") or ".." in q["path"]):
            errs.append(q["key"] + " path not relative")
        if q["operation"] is not None and q["operation"] not in OPS:
            errs.append(q["key"] + " op")
        if q["phase"] is not None and q["phase"] not in PHASES:
            errs.append(q["key"] + " phase")
        if not q["relevant"]:
            errs.append(q["key"] + " no relevant records")
        for k, g in q["relevant"].items():
            r = byk[k]
            if r["state"] != "live" or k in q["forbidden"] or forbidden_kind(r, q) or g not in (1, 2):
                errs.append(q["key"] + " relevant %s not applicable" % k)
            if r["topic"] in ("core", "noise"):
                errs.append(q["key"] + " relevant core/noise")
            if g == 2 and not (r["topic"] == q["topic"] and r["authority"] == "explicit"):
                errs.append(q["key"] + " grade 2 on non-topic/non-explicit")
        for r in recs:
            k = forbidden_kind(r, q)
            if q["forbidden"].get(r["key"]) != k:
                errs.append(q["key"] + " forbidden kind wrong for " + r["key"])
            if r["scope"] == "global" and q["forbidden"].get(r["key"]) == "other-repo":
                errs.append(q["key"] + " global record marked other-repo")
            if is_standing_like(r) and r["project"] == q["project"] and r["key"] in q["forbidden"]:
                errs.append(q["key"] + " standing rule forbidden in its project")
        if q["coreProfile"] != core_profile(recs, q["project"]):
            errs.append(q["key"] + " coreProfile")
        if set(q["coreProfile"]) & set(q["forbidden"]):
            errs.append(q["key"] + " core profile forbidden")
    for s in ds["sessionStart"]:
        for k in s["mustKnow"]:
            if not is_standing_like(byk[k]) or byk[k]["project"] != s["project"]:
                errs.append(s["key"] + " mustKnow " + k)
    # counts
    n = len(recs)
    if not 235 <= n <= 265:
        errs.append("record count %d" % n)
    langs = collections.Counter(q["lang"] for q in qs)
    if not (95 <= len(qs) <= 105 and 65 <= langs["en"] <= 75 and 25 <= langs["zh"] <= 35):
        errs.append("query counts %s" % dict(langs))
    topics = {r["topic"] for r in recs} - {"core", "noise"}
    if not 10 <= len(topics) <= 12:
        errs.append("topic count")
    core = [r for r in recs if r["topic"] == "core"]
    if not 5 <= len(core) <= 7 or not any(r["scope"] == "project" for r in core):
        errs.append("core records")
    noise = [r for r in recs if r["topic"] == "noise"]
    if not 8 <= len(noise) <= 12:
        errs.append("noise count")
    standing = [r for r in recs if r["trap"] == "standing"]
    if not 10 <= len(standing) <= 15 or {r["load"]["op"] for r in standing} != {"remember", "signal"}:
        errs.append("standing records")
    tight = [q for q in qs if q["contextBudget"] != DEFAULT_BUDGET]
    if not 8 <= len(tight) <= 12 or not all(300 <= q["contextBudget"] <= 1200 for q in tight):
        errs.append("tight budgets")
    trig_only = [q for q in qs if any(byk[k]["topic"] != q["topic"] and q["operation"] in byk[k]["triggerOps"]
                                      for k in q["relevant"])]
    if len(trig_only) < 10:
        errs.append("operation-only queries: %d" % len(trig_only))
    no_echo = [q for q in qs if not any(kw.lower() in q["task"].lower()
                                        for k in q["relevant"] for kw in byk[k]["selectors"]["tasks"])]
    if len(no_echo) < len(qs) // 2:
        errs.append("only %d queries avoid the relevant records' task keywords" % len(no_echo))
    cues = ("from now on", "always", "以后", "每次")
    for r in recs:
        if r["load"]["op"] == "signal" and r["state"] == "live" and not any(c in r["text"].lower() for c in cues):
            errs.append(r["key"] + " live signal without a long-term cue")
    # checks of this set
    for q in qs:  # the README promises paths on which gitignore globs and plain fnmatch agree
        for r in recs:
            ps = r["selectors"]["paths"]
            if q["path"] is not None and ps and \
                    path_matches(ps, q["path"]) != any(fnmatch.fnmatch(q["path"], g) for g in ps):
                errs.append("%s: gitignore and fnmatch disagree on %s for %s" % (q["key"], q["path"], r["key"]))
    if set(TOPICS) & EARLIER_TOPICS:
        errs.append("topics reused from earlier sets: %s" % sorted(set(TOPICS) & EARLIER_TOPICS))
    if {p["language"] for p in ds["projects"]} & EARLIER_LANGUAGES:
        errs.append("project languages reused from held-out sets 4-6")
    if len(ds["projects"]) != 5 or len({p["language"] for p in ds["projects"]}) < 4 or \
            any(not p["remote"].startswith("https://example.invalid/") for p in ds["projects"]):
        errs.append("projects")
    for t, v in ds["topics"].items():
        for u in v["related"]:
            if u not in ds["topics"] or t not in ds["topics"][u]["related"] or u == t:
                errs.append("related %s-%s not symmetric" % (t, u))
    if sum(len(v["related"]) for v in ds["topics"].values()) < 8:
        errs.append("too few related topic pairs")
    for r in recs:
        for u in r.get("also", []):
            if u not in ds["topics"]:
                errs.append(r["key"] + " also names unknown topic " + u)
    zh = sum(bool(re.search("[\u4e00-\u9fff]", r["text"])) for r in recs)
    if not 0.12 <= zh / n <= 0.18:
        errs.append("Chinese record texts %d of %d" % (zh, n))
    for q in qs:
        if (q["lang"] == "zh") != bool(re.search("[\u4e00-\u9fff]", q["task"])):
            errs.append(q["key"] + " lang does not fit the task text")
    per_topic = collections.Counter(q["topic"] for q in qs)
    if set(per_topic) != set(TOPICS) or min(per_topic.values()) < 6:
        errs.append("queries per topic %s" % dict(per_topic))
    if sum(q["path"] is None for q in qs) < 8 or sum(q["phase"] is None for q in qs) < 15 or \
            sum(q["operation"] is None for q in qs) < 3:
        errs.append("too few queries without path / phase / operation")
    if sum(q["path"] is not None and q["operation"] is not None for q in qs) < 70:
        errs.append("most queries need operation and path")
    return errs, trig_only


def build_dataset():
    random.seed(SEED)  # nothing is drawn at random today; the seed is kept for the format
    records, sym2key = build_records()
    queries = build_queries(records, sym2key)
    ds = {
        "schema": "comet-eval.director-dataset/v1",
        "name": NAME,
        "seed": SEED,
        "projects": PROJECTS,
        "topics": {t: {"related": RELATED[t]} for t in TOPICS},
        "defaultContextBudget": DEFAULT_BUDGET,
        "records": records,
        "queries": queries,
        "sessionStart": build_session_start(records),
    }
    return ds, records, queries, sym2key


def dump_candidates(ds, sym2key):
    """--candidates: every query with its labelled and its dropped records, for labelling by hand."""
    key2sym = {v: k for k, v in sym2key.items()}
    byk = {r["key"]: r for r in ds["records"]}
    for q in ds["queries"]:
        print("%s [%s/%s/%s] %s | path=%s op=%s ph=%s budget=%s" % (q["key"], q["topic"], q["project"], q["lang"],
              q["task"], q["path"], q["operation"], q["phase"], q["contextBudget"]))
        for k, g in q["relevant"].items():
            r = byk[k]
            print("     %d %-14s %-18s %s" % (g, key2sym[k], r["topic"], r["title"]))
        for sym in NOT_EXPECTED.get(q["key"], ()):
            print("     - %-14s (dropped)" % sym)


def main():
    ds, records, queries, sym2key = build_dataset()
    errs, trig_only = validate(ds)
    if errs:
        print("\n".join(errs[:60]))
        sys.exit("validation failed: %d problems" % len(errs))
    if "--candidates" in sys.argv:
        dump_candidates(ds, sym2key)
        return
    text = json.dumps(ds, ensure_ascii=False, indent=1) + "\n"
    if "--check" in sys.argv:
        if OUT.exists() and OUT.read_text(encoding="utf-8") != text:
            sys.exit("validation passed, but %s differs from what this script generates; rerun without --check"
                     % OUT.name)
        print("validation passed" + (" and %s is up to date" % OUT.name if OUT.exists() else ""))
    else:
        OUT.write_text(text, encoding="utf-8")
        print("wrote", OUT)
    nrel = [len(q["relevant"]) for q in queries]
    print("records:", len(records), "by trap:",
          dict(sorted(collections.Counter(str(r["trap"]) for r in records).items())))
    print("records by state:", dict(collections.Counter(r["state"] for r in records)))
    print("records per topic:", sorted(collections.Counter(r["topic"] for r in records).values()))
    print("queries:", len(queries), "by lang:", dict(collections.Counter(q["lang"] for q in queries)))
    print("relevant per query: mean %.2f, min %d, max %d, distribution %s" % (
        statistics.mean(nrel), min(nrel), max(nrel), dict(sorted(collections.Counter(nrel).items()))))
    byk = {r["key"]: r for r in records}
    print("queries not echoing a relevant record's task keyword:",
          sum(not any(kw.lower() in q["task"].lower() for k in q["relevant"] for kw in byk[k]["selectors"]["tasks"])
              for q in queries))
    print("queries with a tight budget:", sum(q["contextBudget"] != DEFAULT_BUDGET for q in queries),
          "| with an operation-only relevant rule:", len(trig_only))
    print("sessionStart:", [(s["key"], len(s["mustKnow"])) for s in ds["sessionStart"]])
    print("queries with/without:", {d: (sum(q[d] is not None for q in queries), sum(q[d] is None for q in queries))
                                    for d in ("path", "operation", "phase")})
    print("record texts in Chinese:", sum(bool(re.search("[\u4e00-\u9fff]", r["text"])) for r in records))
    if "-v" in sys.argv:
        key2sym = {v: k for k, v in sym2key.items()}
        for q in queries:
            print(q["key"], q["topic"], q["project"], "|", q["task"], "|", q["path"], q["operation"], q["phase"])
            print("    ", {key2sym[k]: g for k, g in q["relevant"].items()})


if __name__ == "__main__":
    main()
