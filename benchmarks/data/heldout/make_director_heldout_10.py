#!/usr/bin/env python3
"""Generate director-heldout-10.json: a blind, labelled evaluation set for the Context Director.

Standard library only.  The records and requests are written by hand below; the labels
(`relevant`, `forbidden`, `coreProfile`) and the `sessionStart` list are derived from them by the
grading rules of /work/shared/eval/README.md, and the script checks its own output before writing.

Five projects (Object Pascal/Delphi, MATLAB, PowerShell, Apex, Nim) and twelve topics:
dpi-scaling, color-management, acquisition-metadata, undo-redo, destructive-actions, code-signing,
governor-limits, trigger-handlers, file-watching, path-handling, compiler-flags, windows-registry.

Usage:  python3 make_director_heldout_10.py [output.json]
"""
import fnmatch
import json
import os
import random
import re
import sys
from collections import Counter

SEED = 1010
NAME = "director-heldout-10"
SCHEMA = "comet-eval.director-dataset/v1"
DEFAULT_BUDGET = 6000
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "director-heldout-10.json")

PROJECTS = [
    {"name": "plover-pos", "remote": "https://example.invalid/halyard-retail/plover-pos.git",
     "language": "Object Pascal (Delphi)"},
    {"name": "gannet-scope", "remote": "https://example.invalid/fulmar-lab/gannet-scope.git",
     "language": "MATLAB"},
    {"name": "skua-fleet", "remote": "https://example.invalid/brantwood-it/skua-fleet.git",
     "language": "PowerShell"},
    {"name": "tern-crm", "remote": "https://example.invalid/corvid-sales/tern-crm.git",
     "language": "Apex"},
    {"name": "petrel-sync", "remote": "https://example.invalid/skerry-tools/petrel-sync.git",
     "language": "Nim"},
]
PROJECT_NAMES = [p["name"] for p in PROJECTS]

TOPICS = {
    "dpi-scaling": {"related": []},
    "color-management": {"related": ["acquisition-metadata"]},
    "acquisition-metadata": {"related": ["color-management"]},
    "undo-redo": {"related": []},
    "destructive-actions": {"related": []},
    "code-signing": {"related": []},
    "governor-limits": {"related": ["trigger-handlers"]},
    "trigger-handlers": {"related": ["governor-limits"]},
    "file-watching": {"related": ["path-handling"]},
    "path-handling": {"related": ["file-watching"]},
    "compiler-flags": {"related": []},
    "windows-registry": {"related": []},
}

OPERATIONS = {"edit", "review", "debug", "refactor", "commit", "release", "deploy"}
PHASES = {"plan", "build", "verify"}
TRAPS = {None, "superseded", "tombstoned", "one-off", "path-variant", "operation-variant",
         "phase-variant", "observed", "repo-copy", "episode", "signal", "noise", "standing"}

# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------
RECORDS = []


def _add(topic, project, title, text, *, auth="explicit", paths=(), tasks=(), ops=(), phases=(),
         state="live", load=None, of=None, trap=None, mtype="collaboration-policy", mclass=None,
         trig=(), also=None):
    key = "m%04d" % (len(RECORDS) + 1)
    if mclass is None:
        mclass = "project-agreement" if project else "user-preference"
    if load is None:
        load = "remember" if auth == "explicit" else "apply"
    r = {
        "key": key,
        "topic": topic,
        "project": project,
        "scope": "project" if project else "global",
        "memoryType": mtype,
        "memoryClass": mclass,
        "authority": auth,
        "title": title,
        "text": text,
        "selectors": {"paths": list(paths), "tasks": list(tasks), "operations": list(ops),
                      "phases": list(phases)},
        "state": state,
        "load": {"op": load} if of is None else {"op": load, "of": of},
        "trap": trap,
        "triggerOps": list(trig),
    }
    if also is not None:
        r["also"] = list(also)
    RECORDS.append(r)
    return key


class Group:
    """The rules one project (or the user, globally) keeps about one topic."""

    def __init__(self, project, topic, title, paths=(), tasks=(), ops=()):
        self.project, self.topic, self.title = project, topic, title
        self.paths, self.tasks, self.ops = list(paths), list(tasks), list(ops)

    def _sel(self, paths=None, ops=None, phases=()):
        return dict(paths=self.paths if paths is None else paths, tasks=self.tasks,
                    ops=self.ops if ops is None else ops, phases=phases)

    def rule(self, text, auth="explicit", title=None, **kw):
        return _add(self.topic, self.project, title or self.title, text, auth=auth,
                    **self._sel(), **kw)

    def old_new(self, old_text, new_text, auth="explicit"):
        """An outdated rule and its replacement: `correct` for explicit, `supersede` for inferred."""
        old = _add(self.topic, self.project, self.title, old_text, auth=auth, state="superseded",
                   trap="superseded", **self._sel())
        new = _add(self.topic, self.project, self.title, new_text, auth=auth,
                   load="correct" if auth == "explicit" else "supersede", of=old, **self._sel())
        return old, new

    def tomb(self, text, auth="explicit", title=None):
        return _add(self.topic, self.project, title or self.title, text, auth=auth,
                    state="forgotten", trap="tombstoned", **self._sel())

    def oneoff(self, text):
        return _add(self.topic, self.project, "(one-off) " + self.title, text, state="one-off",
                    load="signal", trap="one-off", mtype="personal-episode",
                    mclass="collaboration-habit")

    def observed(self, text):
        return _add(self.topic, self.project, self.title + " (observed)", text, auth="inferred",
                    trap="observed", mclass="collaboration-habit", **self._sel())

    def pathvar(self, text, paths, title, auth="explicit"):
        return _add(self.topic, self.project, title, text, auth=auth, trap="path-variant",
                    **self._sel(paths=paths))

    def opvar(self, text, ops, title, auth="explicit"):
        return _add(self.topic, self.project, title, text, auth=auth, trap="operation-variant",
                    **self._sel(ops=ops))

    def phasevar(self, text, phases, title, auth="explicit"):
        return _add(self.topic, self.project, title, text, auth=auth, trap="phase-variant",
                    **self._sel(phases=phases))

    def trigger(self, text, ops, title, auth="explicit"):
        """A rule that fires on an operation whatever the task is about."""
        return _add(self.topic, self.project, title, text, auth=auth, trig=ops,
                    **self._sel(ops=ops))

    def episode(self, title, text, auth="explicit", also=()):
        return _add(self.topic, self.project, title, text, auth=auth, trap="episode",
                    tasks=self.tasks, mtype="personal-episode", mclass="collaboration-habit",
                    also=also)

    def signal(self, text):
        return _add(self.topic, self.project, self.title, text, load="signal", trap="signal")

    def standing(self, title, text):
        return _add(self.topic, self.project, title, text, trap="standing")


def repo_copy(global_key, project):
    g = next(r for r in RECORDS if r["key"] == global_key)
    s = g["selectors"]
    return _add(g["topic"], project, g["title"], g["text"], paths=s["paths"], tasks=s["tasks"],
                ops=s["operations"], phases=s["phases"], trap="repo-copy")


def noise(project, text):
    return _add("noise", project, text.rstrip("。."), text, trap="noise")


def core(project, title, text, mclass="user-fact", state="live", load=None, of=None, trap=None):
    return _add("core", project, title, text, mtype="core-profile", mclass=mclass, state=state,
                load=load, of=of, trap=trap)


# ---------------------------------------------------------------- global rules ---------------
GD = Group(None, "destructive-actions", "Destructive commands",
           tasks=["delete", "remove", "wipe", "overwrite", "删除", "清空"])
gd_old, gd_new = GD.old_new(
    "Deleting build output, temp folders or test data without asking is fine in any environment.",
    "Before running anything that deletes or overwrites data (rm -rf, git clean, Remove-Item "
    "-Recurse, DROP/TRUNCATE, mass DML), show me the exact command plus a dry run or the list of "
    "what it would touch, and wait for my go.")
GD.tomb("Before running anything that deletes data, show me the command and wait for my go. Also "
        "post the command in #ops-changes before you run it.")

GS = Group(None, "code-signing", "Signing material",
           tasks=["sign", "signing", "certificate", "cert", "签名", "证书"])
gs_rule = GS.rule("Signing keys, certificates and their passwords never go into a repository, a "
                  "script, a log or a chat message; signing happens only on the CI signing step.")

GP = Group(None, "path-handling", "No machine-specific paths",
           tasks=["path", "folder", "directory", "路径", "目录"])
gp_rule = GP.rule("不要在代码和脚本里写死本机的绝对路径（比如 C:\\Users\\某人\\Desktop 或 "
                  "/home/某人），一律相对仓库根目录，或者从配置、环境变量里读。")
GP.tomb("Hard-coded paths are fine in throwaway scripts as long as they sit under scratch/.")

# ---------------------------------------------------------------- plover-pos (Delphi) --------
P = "plover-pos"

pdpi = Group(P, "dpi-scaling", "Form scaling", paths=["src/forms/**", "*.dfm"],
             tasks=["dpi", "scaling", "high dpi", "4k", "高分屏", "缩放"], ops=["edit", "debug"])
pdpi.rule("Forms are designed at 96 PPI with Scaled = True; controls are placed with Align, "
          "Anchors, TGridPanel and TFlowPanel. No pixel offsets computed in code, no fixed "
          "Width/Height on containers that hold text.")
pdpi.old_new(
    "Set Scaled = False on all forms so the till layouts stay pixel-exact on the 1024x768 screens.",
    "The app manifest declares per-monitor DPI awareness v2. Custom drawing (OnDrawCell, OnPaint) "
    "scales every length with ScaleValue / MulDiv(x, CurrentPPI, 96) and handles OnAfterMonitorDpiChanged.")
pdpi.rule("Icons come from TVirtualImageList backed by one TImageCollection with 16/24/32/48 px "
          "variants, never from fixed-size TImageList bitmaps.", auth="inferred")
pdpi.tomb("Forms are designed at 96 PPI with Scaled = True and anchored layouts. Also attach "
          "screenshots at 100 % and 150 % to the Jira ticket for every form change.")
pdpi.oneoff("Just for tomorrow's customer demo, force the app to 100 % scaling, we'll undo it after.")
pdpi.trigger("When committing .dfm changes, check the diff first: PixelsPerInch must stay 96 and no "
             "Left/Top/Width/Height may have been rescaled by the IDE running on a 4K laptop; "
             "revert such noise before committing.", ["commit"], "DFM diffs at commit")
pdpi.observed("Observed in plover-pos: the user checks every new dialog at 150 % and 200 % before "
              "asking for review.")
pdpi.phasevar("While verifying form changes, run the UI smoke test with the second-monitor profile "
              "at 175 % (tests/ui/run_hidpi.cmd) and attach its screenshots.", ["verify"],
              "HiDPI smoke test")
pdpi.pathvar("Forms under legacy/ (the OldTill units) stay Scaled = False; they are replaced next "
             "year, don't spend time on their scaling.", ["legacy/**"], "Form scaling (legacy tills)")
pdpi.episode("Keypad off-screen at store 12",
             "After a Windows update switched store 12's till to 125 %, the tender keypad was drawn "
             "off-screen and the shop could not take card payments for an hour; that is why the "
             "tender dialog has a minimum-size test.", auth="inferred")
pdpi.signal("以后 plover-pos 里新加的窗体，提交评审前都要在 200% 缩放下截图给我看。")

pundo = Group(P, "undo-redo", "Basket undo", paths=["src/core/**", "src/forms/**"],
              tasks=["undo", "redo", "void", "history", "撤销", "重做"],
              ops=["edit", "debug", "refactor"])
pundo.rule("Every basket change goes through a TBasketCommand subclass with Execute and Undo; forms "
           "never modify TBasket.Lines directly, so 'void last action' can roll back anything.")
pundo.rule("Undo history belongs to one sale and is cleared when the sale is tendered; a completed "
           "sale can only be reversed with a refund document, never with undo.")
pundo.rule("A multi-line action (applying a promotion bundle, splitting a pack) is one composite "
           "command, so a single undo reverts all of it.", auth="inferred")
pundo.old_new("Undo restores a full copy of the basket taken before each change.",
              "Undo depth is capped at 50 commands per sale; on overflow drop the oldest command, "
              "never the whole history.", auth="inferred")
pundo.opvar("In reviews of basket code, flag any write to TBasket.Lines outside a command class.",
            ["review"], "Basket undo (review)")
pundo.pathvar("In legacy/ the old till still undoes with TOldTill.RestoreSnapshot; leave that as it "
              "is rather than porting it to commands piecemeal.", ["legacy/**"],
              "Basket undo (legacy tills)")
pundo.oneoff("这次先别做撤销，演示只需要能加商品。")
pundo.observed("Observed in plover-pos: the user writes an undo test next to every new basket "
               "command without being asked.")
pundo.episode("Undo after card authorisation",
              "A cashier undid a line after the card terminal had already authorised the amount, "
              "leaving a 4.50 mismatch at day end; undo is now blocked once payment has started.")
pundo.tomb("Keep an on-screen list of the last ten basket actions so cashiers can pick which one "
           "to undo.")

pdes = Group(P, "destructive-actions", "Deleting till data",
             tasks=["delete", "void", "purge", "wipe", "删除", "清空"], ops=["edit", "review"])
pdes.rule("Deleting stock items or customers is a soft delete (Archived flag plus who and when); "
          "hard deletes only happen in the yearly purge tool, which asks for a supervisor PIN.")
pdes.rule("清空本地库、重建索引或重新同步之前，必须先把 .fdb 文件自动备份到 backups\\ 目录（带日期），"
          "备份失败就中止。")
pdes.rule("Every destructive menu item confirms with the name and count of what goes away "
          "('Delete 3 price rules?'), with Cancel as the default button.", auth="inferred")
pdes.tomb("Every destructive menu item asks for confirmation. Also send a line to the #pos-alerts "
          "channel each time one is used.", auth="inferred")
pdes.old_new("Customers asking to be forgotten can be removed with a plain DELETE on CUSTOMERS.",
             "A GDPR erasure anonymises the customer row and keeps the sales lines for the tax "
             "retention period; it is logged with the request number.")
pdes.observed("Observed in plover-pos: the user backs up the .fdb file before any data-changing "
              "experiment.")
pdes.standing("Never touch TILL-QA",
              "plover-pos talks to a shared QA database, TILL-QA, that four stores use for "
              "training; never run anything that writes to it without telling me first.")
pdes.oneoff("Go ahead and wipe my local test database, no backup needed this time.")

psig = Group(P, "code-signing", "Signing the till build",
             paths=["build/**", "installer/**", "*.dproj"],
             tasks=["sign", "signtool", "certificate", "smartscreen", "签名", "证书"],
             ops=["edit", "debug", "release"])
psig.rule("PloverPOS.exe and the installer are signed with signtool on the build server using the "
          "EV certificate in its HSM, SHA-256 digest and an RFC 3161 timestamp (/tr ... /td "
          "sha256); never sign on a developer machine.")
psig.old_new("Only the installer needs a signature; the exe inside is covered by it.",
             "Sign every binary we ship (PloverPOS.exe, our own DLLs, the updater and the "
             "installer), not just the installer; SmartScreen and the pharmacies' antivirus check "
             "each file.")
psig.trigger("Before tagging a release, run signtool verify /pa /all on every .exe and .dll in the "
             "installer payload and paste the output into the release ticket.", ["release"],
             "Release signature check")
psig.phasevar("When planning a release, check the EV certificate expiry (currently February 2026) "
              "and start the renewal at least 30 days ahead.", ["plan"], "Certificate expiry")
psig.oneoff("Skip signing for this internal lab build, it never leaves the office.")
psig.episode("Unsigned timestamp, quarantined installer",
             "In 2024 the 4.7 installer was signed without a timestamp; when the certificate "
             "expired, every store's antivirus quarantined it. Always timestamp.")
psig_copy = repo_copy(gs_rule, P)

pwat = Group(P, "file-watching", "Price drop folder", paths=["src/io/**"],
             tasks=["watch", "drop folder", "price file", "import", "监听", "文件夹"],
             ops=["edit", "debug"])
pwat.rule("The price drop folder is watched with ReadDirectoryChangesW on a dedicated thread; "
          "events are debounced for 2 s and a file is imported only once it can be opened with "
          "exclusive access, because head office writes it in chunks.")
pwat.rule("After the watcher restarts (sleep/resume, share reconnect) rescan the whole folder: "
          "events during the gap are lost.", auth="inferred")
pwat.tomb("The price drop folder is watched on a dedicated thread. Also e-mail the store manager "
          "whenever an import finishes.")
pwat.rule("导入成功的文件移到 done\\ 子目录，文件名前加导入时间，保留 30 天。", auth="inferred")
pwat.phasevar("When planning watcher changes, write down which head-office export versions drop "
              "files there and how they name their temp files.", ["plan"], "Price drop folder (planning)")
pwat.opvar("Reviews of watcher code check that no file handle stays open between events.",
           ["review"], "Price drop folder (review)")
pwat.episode("Half-written PRICES.CSV",
             "Last spring a half-written PRICES.CSV from the head-office sync was imported and set "
             "400 prices to zero; imports now wait for exclusive access and check the trailer line.")
pwat.signal("以后价格文件导入失败时，把原文件移到 quarantine 文件夹留着，不能直接删掉。")
pwat.oneoff("For today, just poll the folder every 10 seconds, I'll look at the watcher later.")

ppath = Group(P, "path-handling", "Till file paths", paths=["src/io/**", "src/core/**"],
              tasks=["path", "folder", "unc", "file name", "路径", "文件名"],
              ops=["edit", "debug", "refactor"])
ppath.rule("Build paths with TPath.Combine and IncludeTrailingPathDelimiter; data files live under "
           "TPath.GetPublicPath + 'PloverPOS' (ProgramData), never next to the exe in Program Files.")
ppath.rule("The head-office share (\\\\ho-fs01\\prices) comes from the config file, and code that "
           "may see it must cope with long paths (\\\\?\\UNC\\ prefix).", auth="inferred")
ppath.old_new("Keep export files in the exe folder so support can find them.",
              "Export file names are built from the store number and an ISO date "
              "(S042_2025-03-14.csv) with characters invalid on Windows replaced; never from free "
              "text typed at the till.", auth="inferred")
ppath.oneoff("今天先把导出路径写死成 D:\\export，测完再改回来。")
ppath.tomb("Always use short 8.3 names when passing paths to the fiscal printer driver.")

pflg = Group(P, "compiler-flags", "Build configuration", paths=["*.dproj", "build/**", "*.inc"],
             tasks=["compiler", "directive", "define", "build config", "编译", "开关"],
             ops=["edit", "debug"])
pflg.rule("The Release configuration keeps range and overflow checking on ({$R+} {$Q+}); we accept "
          "the cost on the tills. Debug additionally enables FastMM FullDebugMode.")
pflg.rule("Conditional defines live in src/PloverPOS.inc only (e.g. {$DEFINE FISCAL_DE}); never "
          "{$DEFINE} inside individual units and never only in the IDE project options.")
pflg.opvar("In reviews, a new {$IFDEF} branch needs both sides built in CI (the matrix in "
           "build/configs.txt), otherwise reject it.", ["review"], "Build configuration (review)")
pflg.tomb("Conditional defines live in src/PloverPOS.inc. Also ask Hemi to re-run the store "
          "certification for every new define.")
pflg.old_new("Turn optimisation off in Release too, it makes support stack traces easier to read.",
             "Release builds are optimised and ship a .map file (detailed) to the symbol share so "
             "madExcept stack traces from stores can be resolved.")
pflg.standing("Delphi 11.3 only",
              "plover-pos must keep compiling with Delphi 11.3, the version in the till build "
              "image; no Delphi 12 features such as multiline string literals.")

noise(P, "Mention the ticket number (POS-xxxx) when you refer to earlier work.")

# ---------------------------------------------------------------- gannet-scope (MATLAB) ------
G = "gannet-scope"

gcol = Group(G, "color-management", "Channel colours", paths=["+gannet/+color/**", "apps/**"],
             tasks=["colormap", "lut", "colour", "color", "伪彩", "颜色"], ops=["edit", "review"])
gcol.rule("Fluorescence channels are rendered with the lab LUTs in +gannet/+color/luts.json, never "
          "jet or hsv; merged overlays use magenta/green/cyan so colour-blind readers can tell "
          "channels apart.")
gcol.rule("Display scaling is explicit (per-channel percentile clip, 0.1-99.9 by default) and never "
          "changes pixel data; measurements always run on the raw uint16 values.")
gcol.rule("Exported figures are converted to sRGB with an embedded ICC profile; don't rely on "
          "MATLAB's untagged PNG output.", auth="inferred")
gcol.old_new("Use parula for every channel so the figures look consistent.",
             "The colour parameters of a figure (LUT, clip limits, gamma) are written to a sidecar "
             "JSON next to it, so the figure can be regenerated exactly.")
gcol.opvar("While debugging rendering, compare against Fiji with identical clip limits before "
           "touching any LUT code.", ["debug"], "Channel colours (debugging)")
gcol.oneoff("For the grant slides only, jet is fine, the PI asked for it.")
gcol.observed("Observed in gannet-scope: the user checks figures with a colour-blindness simulator "
              "before sending them out.")
gcol.tomb("Render every channel in greyscale and colour them only in Illustrator.")
gcol.phasevar("When planning a change to figure colours, agree the LUTs with the PI before writing "
              "code.", ["plan"], "Channel colours (planning)")
gcol.pathvar("Scripts in legacy/ reproduce published figures and keep their original colormaps; "
             "don't modernise them.", ["legacy/**"], "Channel colours (published figures)",
             auth="inferred")
gcol.episode("Clipped dim channel",
             "A 2023 preprint figure was sent back because the 8-bit export had clipped the dim "
             "channel; exports now stay 16-bit until the final sRGB conversion.")
gcol.signal("Going forward, batch figures in gannet-scope use the same clip limits for every panel "
            "of a figure; no per-image autoscaling.")

gmet = Group(G, "acquisition-metadata", "Acquisition metadata", paths=["+gannet/+io/**"],
             tasks=["metadata", "ome", "pixel size", "tiff", "元数据", "像素尺寸"],
             ops=["edit", "debug"])
gmet.rule("Pixel size, channel names and exposure are read from the file's OME-XML; analysis code "
          "never hard-codes 0.65 µm/px or a channel order.")
gmet.rule("写出的 OME-TIFF 必须保留原始 OME-XML，并在 Description 里追加处理步骤和 gannet 版本号。")
gmet.rule("A file without PhysicalSizeX is an error that names the file; never fall back to a "
          "default silently.", auth="inferred")
gmet.old_new("Take the pixel size from the file name suffix, like _065um.",
             "Keep each plane's timestamp (DeltaT) and use it instead of assuming the nominal frame "
             "interval.", auth="inferred")
gmet.pathvar("In legacy/ the old .czi readers get metadata through Bio-Formats' bfopen; leave "
             "them as they are until the migration.", ["legacy/**"], "Acquisition metadata (legacy readers)",
             auth="inferred")
gmet.phasevar("When verifying reader changes, round-trip the three sample files in tests/fixtures "
              "(Nikon, Zeiss, Leica) and diff the metadata.", ["verify"], "Reader round-trip")
gmet.opvar("When reviewing reader code, ask for a sample file in tests/fixtures for every new "
           "vendor format.", ["review"], "Acquisition metadata (review)")
gmet.episode("Cell areas off by 1.54x",
             "A batch of cell-size results was wrong because a Leica file stored PhysicalSizeX in "
             "nm and we assumed µm; always convert using PhysicalSizeXUnit.")
gmet.oneoff("Just hard-code 0.325 µm/px for this one dataset, we'll fix the reader later.")
gmet.observed("Observed in gannet-scope: the user prints the parsed OME metadata before trusting "
              "any new file.")
gmet.tomb("Write a copy of the full OME-XML to a .xml file next to every result.")
gmet.standing("Traceable results",
              "Every results table gannet-scope writes carries, per row, the source file path, "
              "series index and acquisition date, so any number can be traced back to its image.")

gund = Group(G, "undo-redo", "Annotator undo", paths=["apps/**"],
             tasks=["undo", "redo", "annotation", "roi", "撤销", "标注"],
             ops=["edit", "debug", "refactor"])
gund.rule("Every annotator edit (add/move/delete ROI, relabel, merge) is pushed to UndoStack as a "
          "command struct; Ctrl+Z / Ctrl+Y cover all of them and the stack survives switching "
          "images within a session.")
gund.rule("Don't put whole label images on the undo stack; store only the changed ROI. Stacks of "
          "2048x2048 uint16 masks ran the lab PCs out of memory.", auth="inferred")
gund.tomb("Every annotator edit is undoable. Also autosave the session to the share after each edit.")
gund.rule("撤销、重做的快捷键要在 Windows 和 macOS 上都测一遍（Ctrl+Z / Cmd+Z），实验室两种机器都有。",
          auth="inferred")
gund.opvar("In reviews of annotator changes, check that every new edit action has an undo test in "
           "tests/annotator.", ["review"], "Annotator undo (review)")
gund.oneoff("这个版本先不用做重做(redo)，下周再补。")
gund.old_new("Undo only needs to cover the last action.",
             "Undo history is unlimited within a session but is cleared, with a warning, when the "
             "user saves and closes the image.")
gund.phasevar("When verifying annotator changes, run tests/annotator/replay_session.m on the 500-edit "
              "recorded session and compare the final masks.", ["verify"], "Annotator replay test")

gdpi = Group(G, "dpi-scaling", "App layout", paths=["apps/**"],
             tasks=["layout", "dpi", "scaling", "font size", "4k", "高分屏", "布局"],
             ops=["edit", "debug"])
gdpi.old_new("Lay out App Designer components with absolute Position vectors in pixels.",
             "App Designer layouts use uigridlayout with 'fit'/'1x' rows and columns; no absolute "
             "Position vectors, because the microscope PCs run 4K monitors at 150 %.")
gdpi.rule("Font sizes come from the theme struct in apps/theme.m, never literal numbers in each "
          "component.", auth="inferred")
gdpi.rule("工具栏图标用 SVG 或成套的多分辨率 PNG，不要只放一张 16px 的位图。")
gdpi.tomb("App layouts must also be checked on the old 1280x1024 monitor in room B214.")

gdes = Group(G, "destructive-actions", "Raw data and results",
             tasks=["delete", "overwrite", "clean up", "raw data", "删除", "覆盖"],
             ops=["edit", "review"])
gdes.standing("Raw data is read-only",
              "Files under data/raw/ are instrument output and read-only for code: nothing in "
              "gannet-scope may write, move or delete anything there.")
gdes.rule("Batch scripts write into a new timestamped folder under results/ and refuse to run if "
          "it already exists, instead of overwriting an earlier run.")
gdes.trigger("In every review, search the diff for delete(, rmdir( and movefile( and ask why each "
             "one is needed.", ["review"], "Deletes in review")
gdes.oneoff("You can overwrite results/run_0412 this time, it was a broken run anyway.")
gdes.tomb("Move old results to the archive share instead of deleting them, and tell Lena.")

noise(G, "Call the lab's microscopes by their room names (the 'B214 Nikon').")
gp_copy = repo_copy(gp_rule, G)

# ---------------------------------------------------------------- skua-fleet (PowerShell) ----
S = "skua-fleet"

sreg = Group(S, "windows-registry", "Registry changes", paths=["Skua.Fleet/**", "dsc/**"],
             tasks=["registry", "regedit", "hklm", "policy", "注册表"], ops=["edit", "debug"])
sreg.rule("Registry writes go through Set-FleetRegistryValue (Private/RegistryHelpers.ps1), which "
          "exports the old value to the backup share first; no direct Set-ItemProperty or reg.exe "
          "calls in public functions.")
sreg.rule("Machine policy lives under HKLM:\\SOFTWARE\\Policies\\Brantwood. Per-user settings go "
          "through Active Setup or a logon script, never by loading other users' NTUSER.DAT.")
sreg.rule("Always write with an explicit value kind (-Type DWord/String/MultiString) and read "
          "through a wrapper that returns $null for a missing value instead of throwing.",
          auth="inferred")
sreg.old_new("Bulk changes are easiest as .reg files imported with reg.exe import.",
             "Registry baselines are declared as DSC Registry resources in dsc/, not as .reg "
             "imports, so drift shows up in the compliance report.")
sreg.pathvar("The VBS logon scripts in legacy/ write HKCU directly; leave that as it is, they "
             "retire with Windows 10.", ["legacy/**"], "Registry changes (legacy logon scripts)")
sreg.phasevar("When planning a registry baseline change, list the GPOs that set the same keys so "
              "we don't fight Group Policy.", ["plan"], "Registry changes (planning)")
sreg.opvar("When refactoring the registry helpers, keep the backup-before-write behaviour covered "
           "by RegistryHelpers.Tests.ps1.", ["refactor"], "Registry helpers (refactoring)")
sreg.oneoff("这次测试机上可以直接用 regedit 手改，不用走模块。")
sreg.tomb("Registry writes go through Set-FleetRegistryValue. Also e-mail the service desk a list "
          "of changed keys every Friday.")
sreg.observed("Observed in skua-fleet: the user reads back every registry value after writing it.")
sreg.episode("Policy landed in WOW6432Node",
             "In March a baseline wrote to the 32-bit view (WOW6432Node) because the script ran in "
             "x86 PowerShell inside the SCCM task sequence; open keys with RegistryView.Registry64 "
             "or check [Environment]::Is64BitProcess.")
sreg.signal("From now on every registry value skua-fleet sets gets a comment in the baseline naming "
            "the ticket that asked for it.")
sreg.standing("One registry baseline",
              "dsc/Baseline.ps1 is the single source of truth for fleet registry settings; a key "
              "set anywhere else must be added there as well.")

sdes = Group(S, "destructive-actions", "State-changing cmdlets",
             tasks=["remove", "delete", "reset", "wipe", "restart", "删除", "重置"],
             ops=["edit", "review"])
sdes.rule("Public functions that delete, reset or restart declare [CmdletBinding(SupportsShouldProcess, "
          "ConfirmImpact = 'High')] and call $PSCmdlet.ShouldProcess per target, so -WhatIf and "
          "-Confirm work.")
sdes.rule("Functions that act on many machines take -ComputerName from the pipeline and stop at the "
          "first failure unless -ContinueOnError is given; no silent partial runs.", auth="inferred")
sdes.trigger("Before any rollout to a ring, run the change with -WhatIf against the pilot ring "
             "(ring0) and attach the transcript to the change ticket.", ["deploy"],
             "WhatIf before rollout")
sdes.old_new("Default to -Force so scripts never stop for prompts inside task sequences.",
             "Non-interactive callers pass -Confirm:$false explicitly at the call site; never bake "
             "-Force or $ConfirmPreference changes into the module.")
sdes.opvar("In reviews, reject Remove-Item -Recurse on a path built from a variable unless the path "
           "is checked against an allow-list first.", ["review"], "Recursive deletes (review)")
sdes.phasevar("When planning anything destructive, write the rollback step into the plan first.",
              ["plan"], "Rollback first")
sdes.oneoff("Restart the lab machines without asking this afternoon, nobody is using them.")
sdes.episode("Empty $Target wiped ProgramData",
             "A Remove-Item -Recurse with an empty $Target wiped C:\\ProgramData\\Brantwood on 30 "
             "kiosks; validate the path before any recursive delete.")
sdes.signal("以后这个仓库里所有会重启机器的函数，都要先检查有没有用户登录着，有人登录就跳过并记日志。")
sdes.standing("Lab OU only",
              "skua-fleet manages about 4,000 production endpoints; from your session only ever run "
              "against the lab OU (OU=Lab,OU=Fleet), never ring1 or wider.")
sdes.tomb("Every function that deletes something sends a Teams message to the service desk.")
sd_copy = repo_copy(gd_new, S)

ssig = Group(S, "code-signing", "Module signing", paths=["build/**", "Skua.Fleet/**"],
             tasks=["sign", "authenticode", "certificate", "execution policy", "签名"],
             ops=["edit", "debug", "release"])
ssig.rule("Every .ps1, .psm1 and .psd1 in the module is Authenticode-signed by build/Sign-Module.ps1 "
          "with the code-signing certificate from the build agent's store and a timestamp server; "
          "fleet machines run with AllSigned.")
ssig.rule("Sign as the very last build step: any edit after signing, even the version bump in the "
          "psd1, breaks the signature, so bump first.", auth="inferred")
ssig.tomb("Every script is signed. Also keep a copy of the signing certificate on the team share "
          "for emergencies.")
ssig.oneoff("For this lab VM only, set the execution policy to Bypass so you can iterate.")
ssig.pathvar("Ad-hoc operator scripts in scripts/ may stay unsigned while in review, but are signed "
             "before they're copied to the jump host.", ["scripts/**"], "Operator scripts signing")
ssig.old_new("Use a self-signed certificate for the module; pushing it to the fleet's trusted "
             "publishers is enough.",
             "The module is signed with the enterprise CA code-signing certificate; self-signed "
             "certificates are not trusted on the fleet.")

spth = Group(S, "path-handling", "Paths in scripts", paths=["Skua.Fleet/**", "scripts/**"],
             tasks=["path", "unc", "long path", "join-path", "路径"],
             ops=["edit", "debug", "refactor"])
spth.rule("Build paths with Join-Path or [IO.Path]::Combine, never by string concatenation with "
          "'\\'; never assume C: — use $env:SystemDrive and $env:ProgramData.")
spth.rule("访问共享目录一律用 UNC 路径（\\\\fs01\\deploy$），不要依赖映射盘符；计划任务和 SYSTEM "
          "账户下根本没有 Z: 盘。")
spth.rule("Use -LiteralPath whenever a path can contain [ ] or other wildcard characters; user "
          "profile names do.", auth="inferred")
spth.old_new("Logs go to C:\\Temp\\skua.", "Logs go to $env:ProgramData\\Brantwood\\Skua\\Logs "
             "with one folder per run.", auth="inferred")
spth.observed("Observed in skua-fleet: the user tests path code with a profile name that contains "
              "brackets and spaces.")
spth.pathvar("legacy/ batch files still use %~dp0 relative paths; keep them working, don't rewrite.",
             ["legacy/**"], "Paths in legacy batch files", auth="inferred")

noise(S, "When you summarise a long log, quote the first error line verbatim.")

# ---------------------------------------------------------------- tern-crm (Apex) -----------
T = "tern-crm"

tgov = Group(T, "governor-limits", "Governor limits", paths=["force-app/**"],
             tasks=["soql", "dml", "limits", "bulk", "governor", "限制", "批量"],
             ops=["edit", "review", "debug"])
tgov.rule("No SOQL or DML inside loops: collect Ids in a Set, query once into a Map<Id, SObject>, "
          "and write with one DML statement per list.")
tgov.rule("Anything that can touch more than 10,000 rows runs as Batch Apex (scope 200) or a "
          "Queueable chain, never synchronously in a trigger.")
tgov.rule("Queries on the big objects (Account, Opportunity, Task) filter on indexed fields (Id, "
          "OwnerId, CreatedDate, external Ids) so they stay selective.", auth="inferred")
tgov.rule("每个触发器逻辑都要有 200 条记录的批量测试，并断言 Limits.getQueries() 不超过 20。")
tgov.old_new("Use @future methods for anything slow.",
             "Use Queueable instead of @future for async work, so jobs can be chained, carry "
             "sObjects and be monitored.")
tgov.pathvar("Anonymous Apex data fixes in scripts/apex/ update in chunks of 200 with "
             "Database.update(list, false) and print the failed rows.", ["scripts/apex/**"],
             "Data-fix scripts")
tgov.phasevar("When verifying, run LimitsProbeTest and paste its log summary (SOQL, DML, CPU) into "
              "the PR.", ["verify"], "Limits probe")
tgov.opvar("At commit time, run the Code Analyzer rules for Apex (sf scanner run) and fix "
           "OperationWithLimitsInLoop findings.", ["commit"], "Governor limits (commit)")
tgov.oneoff("For this one-time sandbox migration, a query inside the loop is fine.")
tgov.observed("Observed in tern-crm: the user checks the debug log's limit summary after every "
              "bulk test.")
tgov.tomb("No SOQL in loops. Also add the limits-check label to every pull request.")
tgov.episode("Price-book update stopped halfway",
             "The June price-book update hit 'Apex CPU time limit exceeded' at 9,800 rows and left "
             "half the products updated; big updates now run as batches with a resumable checkpoint.",
             auth="inferred")
tgov.signal("From now on in tern-crm, every new Queueable gets a test that enqueues it with 200 records.")
tgov.standing("Shared limits",
              "tern-crm shares the org with two managed packages that use the same per-transaction "
              "limits; our code may use at most half of any limit.")

ttrg = Group(T, "trigger-handlers", "Trigger handlers",
             paths=["force-app/main/default/triggers/**", "force-app/main/default/classes/**"],
             tasks=["trigger", "handler", "before insert", "after update", "触发器"],
             ops=["edit", "debug", "refactor"])
ttrg.rule("One trigger per object, containing only `new <Object>TriggerHandler().run();`; all logic "
          "lives in a handler class that extends TriggerHandler.")
ttrg.rule("Handlers check the Trigger_Settings__c bypass custom setting, so data loads can switch "
          "automation off per object and per user.")
ttrg.rule("Guard recursion per record Id with a static Set<Id> in the handler, not with one static "
          "Boolean.", auth="inferred")
ttrg.trigger("Deploys to production use RunLocalTests, and every trigger handler class needs at "
             "least 85 % coverage before the deploy starts.", ["deploy"], "Production deploys")
ttrg.opvar("In reviews, flag any after-trigger that updates the same records again; that belongs in "
           "the before-trigger.", ["review"], "Trigger handlers (review)")
ttrg.phasevar("When planning new automation, check first whether a Flow already does it on that "
              "object.", ["plan"], "Flows before code")
ttrg.tomb("One trigger per object. Also update the automation inventory spreadsheet after each change.")
ttrg.oneoff("这次先在触发器里直接写逻辑，明天演示完再挪到 handler。")
ttrg.old_new("Order of execution between triggers on the same object doesn't matter.",
             "Handlers never rely on the order of other automation; anything order-dependent goes "
             "into one handler method.", auth="inferred")
ttrg.pathvar("force-app/main/default/classes/legacy/ 下的旧触发器类还在用老的 TriggerFactory 模式，"
             "只修 bug，不要顺手迁移。", ["force-app/main/default/classes/legacy/**"],
             "Trigger handlers (legacy factory)")
ttrg.observed("Observed in tern-crm: the user writes a bulk test with mixed insert and update before "
              "touching a handler.")
ttrg.episode("Maximum trigger depth exceeded",
             "The Q3 lead import looped: the Lead after-update handler updated Accounts, whose "
             "handler updated Leads again, and the load died with 'maximum trigger depth exceeded' "
             "halfway through 40k rows.", also=["governor-limits"])

tdes = Group(T, "destructive-actions", "Mass deletes",
             tasks=["delete", "mass delete", "purge", "删除"], ops=["edit", "review"])
tdes.rule("Mass deletes run as a batch that first exports the rows as a CSV file attached to the "
          "job log record, then uses Database.delete(list, false); nothing in code calls "
          "Database.emptyRecycleBin.")
tdes.old_new("删除记录可以直接 hard delete，回收站没什么用。",
             "批量删除先在 full sandbox 用同一份数据跑一遍、核对删除条数，再交给管理员在生产执行。")
tdes.oneoff("Delete the test Accounts in my scratch org however you like.")
tdes.standing("No DML in production",
              "Never run DML or anonymous Apex against the production org from a session; data "
              "fixes are reviewed scripts run by an admin.")
td_copy = repo_copy(gd_new, T)

noise(T, "Keep meeting notes in the team's Confluence space, not in the repository.")

# ---------------------------------------------------------------- petrel-sync (Nim) ----------
N = "petrel-sync"

nwat = Group(N, "file-watching", "Watchers", paths=["src/petrel/watch/**"],
             tasks=["watch", "inotify", "fsevents", "events", "监听", "文件变化"],
             ops=["edit", "debug"])
nwat.rule("Watcher backends (inotify, FSEvents, ReadDirectoryChangesW) only push raw events into "
          "one channel; coalescing and the 300 ms per-path quiet window live in debounce.nim and "
          "behave the same on every OS.")
nwat.rule("On overflow (IN_Q_OVERFLOW, MustScanSubDirs, ERROR_NOTIFY_ENUM_DIR) rescan the affected "
          "root; never assume nothing changed.")
nwat.rule("Never follow symlinks while watching; record them as links.", auth="inferred")
nwat.rule("启动时检查 /proc/sys/fs/inotify/max_user_watches，不够用时给出明确提示，不能静默漏掉目录。")
nwat.old_new("Poll the tree every 5 seconds; native watchers are too fiddly.",
             "Polling is only the fallback for network filesystems (NFS, SMB) detected at startup; "
             "local disks use the native watchers.", auth="inferred")
nwat.opvar("During watcher refactors, the golden event-sequence tests in tests/twatch_golden.nim "
           "must keep passing unchanged.", ["refactor"], "Watchers (refactoring)")
nwat.phasevar("Verifying watcher changes includes the 100k-file churn test on all three CI runners.",
              ["verify"], "Watcher churn test")
nwat.pathvar("In poll.nim the interval is 2 s and adaptive up to 30 s; don't lower it, NFS servers "
             "complain.", ["src/petrel/watch/poll.nim"], "Polling interval", auth="inferred")
nwat.oneoff("Turn the debounce off for my debugging session today.")
nwat.observed("Observed in petrel-sync: the user reproduces watcher bugs with the churn script "
              "before changing code.")
nwat.tomb("Log every raw watcher event at info level.")
nwat.episode("Safe-save deleted a folder",
             "A user lost a folder because an editor's safe-save rename storm looked like delete "
             "plus create and the delete propagated first; renames are now paired by file id inside "
             "the debounce window.", also=["destructive-actions"])

npth = Group(N, "path-handling", "Sync paths", paths=["src/petrel/**"],
             tasks=["path", "unicode", "case", "filename", "路径", "文件名"],
             ops=["edit", "debug", "refactor"])
npth.rule("Paths in the sync index are relative to the sync root, use '/' and Unicode NFC; "
          "conversion to native form happens only at the OS boundary in paths.nim.")
npth.rule("Names that differ only by case are a conflict on case-insensitive volumes; detect the "
          "volume's case sensitivity at startup instead of guessing from the OS.")
npth.rule("Names invalid on Windows (CON, NUL, trailing dots or spaces, :*?\"<>|) are escaped "
          "reversibly before they reach a Windows peer.", auth="inferred")
npth.old_new("Compare paths with plain string equality.",
             "Compare paths through samePath() in paths.nim, which applies NFC and the volume's "
             "case rule.")
npth.pathvar("src/petrel/compat/ reads the v1 index, which stored absolute native paths; read it "
             "as-is for the migration, don't normalise there.", ["src/petrel/compat/**"],
             "Sync paths (v1 compat)", auth="inferred")
npth.opvar("In reviews, flag any path built with & or string formatting instead of the / operator.",
           ["review"], "Sync paths (review)")
npth.phasevar("While building path code, run the tests on the case-insensitive volume image too "
              "(tests/casefold.sh).", ["build"], "Case-insensitive test run")
npth.oneoff("文件名里的 emoji 这次先不管，下个版本再说。")
npth.tomb("Lower-case every path before storing it in the index.")
npth.observed("Observed in petrel-sync: the user adds a Windows-reserved name to the test corpus "
              "for every path fix.")
npth.signal("From now on in petrel-sync, every path bug fix comes with a test that uses a non-ASCII "
            "file name.")

nflg = Group(N, "compiler-flags", "Build flags", paths=["*.nimble", "config.nims", "nim.cfg"],
             tasks=["flags", "-d:release", "compile", "build", "编译", "参数"],
             ops=["edit", "release"])
nflg.rule("Release builds: -d:release --mm:orc -d:lto --panics:on, stripped; never -d:danger, we "
          "want bounds and overflow checks in production.")
nflg.trigger("Before a release, build every target of the CI matrix (linux-amd64 static musl, "
             "macos-universal, windows-amd64) with the release flags and check that "
             "`petrel --version` prints the git tag.", ["release"], "Release matrix build")
nflg.rule("Flags live in config.nims, not in nimble task command lines or the CI yaml, so local "
          "and CI builds match.", auth="inferred")
nflg.opvar("When debugging crashes, build with -d:useMalloc --debugger:native and run under "
           "valgrind or ASan rather than sprinkling echo.", ["debug"], "Build flags (debugging)")
nflg.tomb("Release builds use -d:release. Also post the binary sizes in #petrel-dev.")
nflg.old_new("Use --gc:refc; orc is still experimental.",
             "Use --mm:orc everywhere, including tests; refc builds are not supported.")
nflg.pathvar("Tests compile with -d:petrelTesting --threads:on via tests/config.nims; don't put "
             "test defines in the root config.", ["tests/**"], "Test build flags")
nflg.episode("1.6.2 built with -d:danger",
             "1.6.2 shipped built with -d:danger by mistake and a corrupted index crashed silently "
             "instead of raising; the release checklist now prints the flags.")
nflg.standing("Nim 2.0 only",
              "petrel-sync must build with Nim 2.0.x, the version pinned in .tool-versions; no "
              "features that need Nim 2.2.")

nsig = Group(N, "code-signing", "Release signing", paths=["packaging/**"],
             tasks=["sign", "notarize", "codesign", "certificate", "签名", "公证"],
             ops=["edit", "debug", "release"])
nsig.rule("macOS builds are signed with the Developer ID certificate (codesign --options runtime "
          "--timestamp), notarised with notarytool and stapled before the dmg is uploaded.")
nsig.rule("Windows builds are signed in CI with AzureSignTool against the Key Vault certificate; "
          "the certificate never leaves Key Vault.", auth="inferred")
nsig.oneoff("Ship the nightly unsigned this once, the notary service is down.")
nsig.phasevar("When verifying a signed build, run spctl --assess --type execute -vv and signtool "
              "verify /pa, and paste the output.", ["verify"], "Signature verification")
nsig.tomb("Sign the Linux tarballs with the maintainer's personal GPG key.")
nsig.rule("发布说明里要写上每个安装包签名之后的 SHA-256，和最终上传的文件一致。")
ns_copy = repo_copy(gs_rule, N)

ndes = Group(N, "destructive-actions", "Propagated deletes",
             tasks=["delete", "propagate", "trash", "删除", "回收站"], ops=["edit", "review"])
ndes.rule("Remote deletes never unlink: files move to the sync root's .petrel/trash with 30-day "
          "retention, so any propagated delete can be undone.")
ndes.rule("If one sync pass would delete more than 50 files or 10 % of the tree, pause and ask the "
          "user (the mass-delete guard); never remove or loosen it without an issue.")
ndes.rule("删除同步根目录以外的任何东西都是 bug：删除之前断言目标路径在 sync root 之内。")
ndes.standing("Sandbox roots only",
              "Never run petrel against your real home directory while developing; use the "
              "throwaway roots that tests/sandbox.nim creates.")
ndes.oneoff("Just delete the stale test roots under /tmp without asking today.")
ndes.observed("Observed in petrel-sync: the user checks .petrel/trash after every delete test.")
ndes.old_new("Deletes propagate immediately; the trash folder is optional.",
             "The trash folder is mandatory on every peer; a peer without space for it pauses "
             "deletes instead of unlinking.", auth="inferred")

noise(N, "Link issues as #123 in answers.")

# ---------------------------------------------------------------- global noise and core ------
noise(None, "Prefer tables over bullet lists when comparing options.")
noise(None, "Put the TL;DR first in long answers.")
noise(None, "举例时用真实的数据量级，不要用 foo/bar。")
noise(None, "Use British spelling in prose.")
noise(None, "Assume I read answers on a laptop; avoid very wide code blocks.")

c_old = core(None, "Background", "I'm new to programming; explain every step in detail.",
             state="superseded", trap="superseded")
core(None, "Background", "I'm a Windows desktop and tooling developer (Delphi, PowerShell) who also "
     "supports an imaging lab; keep explanations short and concrete.", load="correct", of=c_old)
core(None, "语言", "回答用中文，代码、命令和技术名词保持英文。", mclass="user-preference")
core(None, "Time zone", "I'm in Wellington (NZ time); give times in NZ local time.")
core(None, "On call", "This sprint I'm on call, so keep answers to three lines.",
     state="forgotten", trap="tombstoned")
core(T, "CRM permissions", "In tern-crm I'm a delegated admin: I can't change profiles or sharing "
     "rules, so propose those as tickets for the CRM team.")
core(G, "Lab audience", "In gannet-scope the biologists review results, not code; explain changes "
     "by what the figures will show.")

# --------------------------------------------------------------------------------------------
# Requests: (topic, project, lang, task, path, operation, phase, budget)
# --------------------------------------------------------------------------------------------
Q = []


def q(topic, project, lang, task, path=None, op=None, phase=None, budget=DEFAULT_BUDGET):
    Q.append(dict(topic=topic, project=project, lang=lang, task=task, path=path, operation=op,
                  phase=phase, contextBudget=budget))


# dpi-scaling
q("dpi-scaling", P, "en", "On the new Surface tills at 150% the Pay button in the tender dialog is "
  "cut off at the bottom and the keypad overlaps the total. Can you fix the layout?",
  "src/forms/TenderDialog.pas", "debug", "build")
q("dpi-scaling", P, "zh", "门店反馈 4K 屏上商品列表的字小得看不清，图标也糊了，帮我看下 MainForm 怎么改",
  "src/forms/MainForm.dfm", "edit")
q("dpi-scaling", P, "en", "commit the StockCountForm changes Priya made yesterday",
  "src/forms/StockCountForm.dfm", "commit")
q("dpi-scaling", P, "en", "add an About box with version and store number",
  "src/forms/AboutDialog.pas", "edit", "build", budget=1000)
q("dpi-scaling", P, "en", "Priya says the new promo banner looks blurry on the Surface tills; "
  "everything else is crisp.", "src/forms/PromoBanner.pas", "debug", "verify")
q("dpi-scaling", P, "en", "Store 3 got new 1920x1080 monitors and the labels on the old till "
  "screen now overlap each other", "legacy/OldTillForm.dfm", "edit")
q("dpi-scaling", G, "en", "The annotator's side panel buttons overlap on the B214 PC (4K screen). "
  "Make the panel resize properly.", "apps/annotator/AnnotatorApp.m", "edit", "build")
q("dpi-scaling", G, "zh", "标注工具在笔记本上打开时右边的直方图被挤出窗口了，看一下",
  "apps/annotator/HistogramPanel.m", "debug")
q("dpi-scaling", G, "zh", "把直方图挪到单独的 tab 里，顺便把字调大一点", None, None, "plan")

# color-management
q("color-management", G, "en", "Reviewer 2 says the merged-channel panels in Fig 3 are unreadable "
  "for colour-blind readers. Redo the overlay.", "+gannet/+color/mergeChannels.m", "edit")
q("color-management", G, "zh", "导出的 PNG 在 Mac 上看起来比在 MATLAB 里更艳，帮我查一下原因",
  "+gannet/+color/exportFigure.m", "edit")
q("color-management", G, "en", "GFP nuclei look completely blown out since the new camera went in, "
  "tweak the display so we can see some structure", "apps/annotator/DisplaySettings.m", "edit",
  "build")
q("color-management", G, "en", "review Tomás's PR that adds a 'fire' LUT option",
  "+gannet/+color/luts.json", "review", "verify")
q("color-management", G, "zh", "把 heatmap 的配色改成 jet，PI 觉得那样更醒目",
  "+gannet/+color/applyLut.m", "edit", budget=1000)
q("color-management", G, "en", "Our rendering of the same stack is darker than Fiji's. Figure out "
  "why.", "+gannet/+color/applyLut.m", "debug")
q("color-management", G, "en", "regenerate figure 2 from last month's results exactly as it was "
  "published", None, "edit", budget=2500)

# acquisition-metadata
q("acquisition-metadata", G, "en", "Add support for the new Leica Stellaris .lif files to the "
  "reader", "+gannet/+io/readLif.m", "edit", "plan")
q("acquisition-metadata", G, "zh", "算出来的细胞面积比手工测的大了一圈，怀疑是哪里读错了",
  "+gannet/+io/readOmeTiff.m", "debug")
q("acquisition-metadata", G, "en", "port the old czi reader to our own OME parser",
  "legacy/readCziBF.m", "refactor")
q("acquisition-metadata", G, "en", "legacy/readCziBF.m crashes on z-stacks without a "
  "PhysicalSizeZ, can you patch it?", "legacy/readCziBF.m", "debug")
q("acquisition-metadata", G, "zh", "给时间序列加一条按实际帧间隔算的速度曲线", None, "edit")
q("acquisition-metadata", G, "en", "verify the reader refactor before I merge it",
  "+gannet/+io/readOmeTiff.m", None, "verify")
q("acquisition-metadata", G, "zh", "批处理输出的 CSV 看不出每一行对应哪张图，加上",
  "scripts/batch_process.m", "edit", "build")

# undo-redo
q("undo-redo", P, "en", "Cashiers want Ctrl+Z to bring back a line they removed by mistake. Right "
  "now removing a line is final.", "src/core/Basket.pas", "edit", "plan")
q("undo-redo", P, "zh", "应用促销套餐后按撤销只撤回了一行，应该整个套餐一起撤回",
  "src/core/Promotions.pas", "debug")
q("undo-redo", P, "en", "review the basket refactor PR from Sam", "src/core/BasketCommands.pas",
  "review", "verify")
q("undo-redo", P, "en", "OldTill: restoring after a void loses the customer card, fix it",
  "legacy/OldTill.pas", "edit")
q("undo-redo", P, "en", "after a card payment went through, the cashier hit 'void last' and the "
  "receipt total changed", "src/forms/MainForm.pas", "debug", budget=1000)
q("undo-redo", G, "en", "Undo in the annotator gets slower and slower and MATLAB runs out of "
  "memory after a few hundred edits", "apps/annotator/UndoStack.m", "debug")
q("undo-redo", G, "zh", "给标注工具加一个批量改标签的功能，误操作了要能退回去",
  "apps/annotator/relabelSelection.m", "edit", "build")
q("undo-redo", G, "en", "Please review the merge-ROIs feature Lena added",
  "apps/annotator/mergeRois.m", "review")
q("undo-redo", G, "zh", "撤销之后切换到下一张图，再切回来，撤销记录就没了",
  "apps/annotator/UndoStack.m", "debug", "verify")

# destructive-actions
q("destructive-actions", S, "en", "Write a function that clears out computer objects in the "
  "Workstations OU that haven't logged on for 180 days",
  "Skua.Fleet/Public/Remove-StaleComputer.ps1", "edit", "plan")
q("destructive-actions", S, "zh", "给 Reset-FleetWinUpdate 加个参数，可以一次对整个 OU 执行",
  "Skua.Fleet/Public/Reset-FleetWinUpdate.ps1", "edit")
q("destructive-actions", S, "en", "push the new patch-window function out to ring1 tonight",
  None, "deploy")
q("destructive-actions", S, "en", "Dan wants Clear-FleetTempFiles merged before the patch window, "
  "can you look over it?", "Skua.Fleet/Public/Clear-FleetTempFiles.ps1", "review")
q("destructive-actions", S, "en", "git clean the build folder and rebuild the module, something "
  "in there is stale", "build/Build-Module.ps1", "debug")
q("destructive-actions", T, "en", "Sales ops wants every Lead older than three years with no "
  "activity gone. Write the batch.", "force-app/main/default/classes/LeadPurgeBatch.cls", "edit",
  "plan")
q("destructive-actions", T, "zh", "帮我在 prod 上把这 300 个重复的 Contact 删掉")
q("destructive-actions", N, "en", "If someone deletes their whole Photos folder on one laptop, "
  "petrel happily deletes it on every other machine too. Can we make that less scary?",
  "src/petrel/transfer.nim", "edit", "plan")
q("destructive-actions", N, "zh", "帮我在本地跑一下同步，看看这个 bug 能不能复现", None, "debug")
q("destructive-actions", N, "en", "review the change that raises the mass-delete threshold to 500 "
  "files", "src/petrel/guard.nim", "review")
q("destructive-actions", G, "en", "the batch script should just overwrite the results folder when "
  "I re-run it, cleaning up by hand is annoying", "scripts/batch_process.m", "edit")
q("destructive-actions", P, "en", "A store got a GDPR erasure request. Add a 'delete customer' "
  "button to the customer screen.", "src/forms/CustomerForm.pas", "edit")
q("destructive-actions", P, "en", "commit what we have for the delete-customer button, I'll finish "
  "the confirmation text tomorrow", "src/forms/CustomerForm.pas", "commit")
q("destructive-actions", P, "zh", "写个小工具把本地 Firebird 库清空，然后重新从总部同步一遍",
  "tools/Resync/ResyncMain.pas", "edit", "build")

# code-signing
q("code-signing", P, "en", "SmartScreen is warning about the new installer at two stores. Find "
  "out why.", "installer/PloverPOS.iss", "debug")
q("code-signing", P, "en", "Cut release 4.12 for the pilot stores", None, "release")
q("code-signing", P, "zh", "把签名步骤加到构建脚本里，直接用我电脑上装的那个证书就行",
  "build/sign-release.ps1", "edit", "build")
q("code-signing", S, "en", "Fleet machines refuse to import the module after I bumped the version: "
  "'file is not digitally signed'", "Skua.Fleet/Skua.Fleet.psd1", "debug")
q("code-signing", S, "zh", "operator 的临时脚本要拷到跳板机上用，有什么要注意的",
  "scripts/Fix-SpoolerQueue.ps1")
q("code-signing", S, "en", "Can you put the cert password into the build script so the nightly "
  "stops prompting?", "build/Sign-Module.ps1", "edit", budget=1000)
q("code-signing", N, "en", "macOS users get \"petrel can't be opened because Apple cannot check it "
  "for malicious software\"", "packaging/macos/build_dmg.sh", "debug")
q("code-signing", N, "en", "wire up Windows signing in the release workflow",
  "packaging/windows/sign.ps1", "edit", "build")
q("code-signing", N, "zh", "检查一下 1.8.0 安装包的签名有没有问题", "packaging/macos/build_dmg.sh",
  None, "verify")
q("code-signing", N, "zh", "发布 2.0.0，这次 macOS 和 Windows 用户下载后要能直接双击打开，别再弹安全警告",
  None, "release")

# governor-limits
q("governor-limits", T, "en", "The nightly territory reassignment dies with 'Too many SOQL "
  "queries: 101' when more than ~150 accounts change owner",
  "force-app/main/default/classes/TerritoryService.cls", "debug")
q("governor-limits", T, "zh", "给 Opportunity 加一个字段，保存时自动汇总所有产品行的折扣",
  "force-app/main/default/classes/OpportunityTriggerHandler.cls", "edit", "build")
q("governor-limits", T, "en", "Write an anonymous Apex script to fix the 12k contacts with the "
  "wrong mailing country", "scripts/apex/fix_mailing_country.apex", "edit")
q("governor-limits", T, "en", "CPU time limit exceeded when ops upload leads through Data Loader",
  None, "debug", "verify")
q("governor-limits", T, "zh", "帮我 review 一下这个新的报价同步类",
  "force-app/main/default/classes/QuoteSyncService.cls", "review")
q("governor-limits", T, "zh", "提交一下 AccountMergeHandler 的修改",
  "force-app/main/default/classes/AccountMergeHandler.cls", "commit")

# trigger-handlers
q("trigger-handlers", T, "en", "When a Case is closed, set the last-service date on the related "
  "Asset", "force-app/main/default/triggers/CaseTrigger.trigger", "edit", "plan")
q("trigger-handlers", T, "zh", "Contact 上现在有三个 trigger，整理成一个",
  "force-app/main/default/triggers/ContactTrigger.trigger", "refactor")
q("trigger-handlers", T, "en", "The data team is loading 2M historical activities this weekend and "
  "needs the automation out of the way during the load")
q("trigger-handlers", T, "en", "deploy the case handler to production", None, "deploy")
q("trigger-handlers", T, "en", "review Jonas's change to the Opportunity after-update handler",
  "force-app/main/default/classes/OpportunityTriggerHandler.cls", "review")
q("trigger-handlers", T, "zh", "Lead 转换的时候报 maximum trigger depth exceeded，帮我看看",
  "force-app/main/default/classes/LeadTriggerHandler.cls", "debug")
q("trigger-handlers", T, "en", "In a Data Loader job only the first 200 records get processed by "
  "the handler, the rest are skipped", "force-app/main/default/classes/TriggerHandler.cls", "edit",
  "build")
q("trigger-handlers", T, "zh", "修一下 legacy 里 OpportunityTriggerFactory 的空指针，线上一直在报",
  "force-app/main/default/classes/legacy/OpportunityTriggerFactory.cls", "edit")
q("trigger-handlers", T, "zh", "新对象 Service_Visit__c 插入时要自动分配给最近的技术员",
  "force-app/main/default/triggers/ServiceVisitTrigger.trigger", "edit")

# file-watching
q("file-watching", N, "en", "On Linux, syncing a big monorepo silently stops picking up changes in "
  "deep folders", "src/petrel/watch/inotify.nim", "debug")
q("file-watching", N, "zh", "macOS 上用 VS Code 保存文件时，对端会先看到文件被删除再出现",
  "src/petrel/watch/fsevents.nim", "debug")
q("file-watching", N, "en", "clean up the watcher module, the debounce logic is copy-pasted into "
  "each backend", "src/petrel/watch/debounce.nim", "refactor")
q("file-watching", N, "en", "Users with home dirs on NFS say changes take minutes to show up, can "
  "we poll faster?", "src/petrel/watch/poll.nim", "edit")
q("file-watching", N, "zh", "beta 之前把 watcher 重写验证一遍", "src/petrel/watch/debounce.nim",
  None, "verify")
q("file-watching", N, "zh", "Windows 上批量解压一个大 zip 之后，有些文件没同步过去",
  "src/petrel/watch/win.nim", "debug")
q("file-watching", P, "en", "Stores report that price updates sometimes arrive with zeros for half "
  "the items", "src/io/PriceImport.pas", "debug")
q("file-watching", P, "zh", "笔记本从睡眠唤醒之后，价格文件夹就再也不更新了",
  "src/io/PriceFileWatcher.pas", "debug", "build")
q("file-watching", P, "en", "plan moving the price drop folder from the local disk to the "
  "head-office share", "src/io/PriceFileWatcher.pas", None, "plan")

# path-handling
q("path-handling", N, "en", "A Windows user can't sync a folder called 'Notes.' from his Linux box; "
  "it errors out and retries forever", "src/petrel/paths.nim", "debug")
q("path-handling", N, "zh", "两台 Mac 上 Readme.md 和 README.md 同时存在时，同步会互相覆盖",
  "src/petrel/index.nim", "debug")
q("path-handling", N, "en", "Migrate old v1 indexes on first start",
  "src/petrel/compat/index_v1.nim", "edit")
q("path-handling", N, "zh", "review 一下 Mika 改的路径拼接", "src/petrel/transfer.nim", "review")
q("path-handling", S, "en", "Get-FleetLogs fails on machines where the profile folder has brackets "
  "in it, like 'Smith [Contractor]'", "Skua.Fleet/Public/Get-FleetLogs.ps1", "debug")
q("path-handling", S, "zh", "部署脚本放到计划任务里跑的时候找不到 Z:\\packages",
  "scripts/Invoke-PatchWindow.ps1", "debug")
q("path-handling", S, "en", "refactor log collection to stop writing into C:\\Temp",
  "Skua.Fleet/Private/LogPaths.ps1", "refactor")
q("path-handling", S, "zh", "legacy 里的 map_drives.cmd 从新的 UNC 位置运行就坏了",
  "legacy/map_drives.cmd", "edit")
q("path-handling", P, "en", "The end-of-day export fails at store 17; they typed the branch name "
  "with a slash in it", "src/io/ExportPaths.pas", "debug")
q("path-handling", P, "zh", "本地数据库现在跟 exe 放在一起，升级的时候老是没权限，放哪里比较合适？",
  "src/core/Database.pas", "edit", "plan")
q("path-handling", G, "en", "The batch script only works on my laptop, Lena gets 'file not found' "
  "on the lab PC", "scripts/batch_process.m", "debug")

# compiler-flags
q("compiler-flags", N, "en", "The release binary is 40% slower than my local build. What's "
  "different?", "config.nims", "debug")
q("compiler-flags", N, "zh", "用 -d:danger 编译能快不少，把 release 配置改一下吧", "config.nims",
  "edit")
q("compiler-flags", N, "en", "Build the 1.9.0 release binaries for all three platforms", None,
  "release")
q("compiler-flags", P, "en", "Range check error at till 4, only in release builds; can't reproduce "
  "it from the IDE", "PloverPOS.dproj", "debug")
q("compiler-flags", P, "zh", "德国门店需要单独的财政打印逻辑，加一个编译开关",
  "src/PloverPOS.inc", "edit", "build")
q("compiler-flags", P, "en", "review Hemi's PR that adds a FISCAL_CH define", "src/PloverPOS.inc",
  "review", budget=2500)
q("compiler-flags", P, "en", "Can we use the new multiline string literals for the SQL in "
  "StockLedger?", "src/core/StockLedger.pas", "refactor")

# windows-registry
q("windows-registry", S, "en", "Disable SMBv1 across the fleet", "dsc/Baseline.ps1", "edit", "plan")
q("windows-registry", S, "zh", "写个函数把所有机器的屏保超时改成 10 分钟",
  "Skua.Fleet/Public/Set-FleetScreenSaver.ps1", "edit")
q("windows-registry", S, "en", "The new Edge homepage policy shows as applied in our logs but Edge "
  "ignores it on about half the machines", "Skua.Fleet/Public/Set-FleetEdgePolicy.ps1", "debug")
q("windows-registry", S, "en", "We need a per-user setting for everyone who logs into the kiosk PCs",
  "Skua.Fleet/Public/Set-KioskUserSetting.ps1", "edit")
q("windows-registry", S, "en", "logon.vbs still points at the old proxy, switch it to "
  "proxy2.brantwood.example", "legacy/logon.vbs", "edit")
q("windows-registry", S, "zh", "review 一下 Set-FleetRegistryValue 的改动",
  "Skua.Fleet/Private/RegistryHelpers.ps1", "review")
q("windows-registry", S, "zh", "把 RegistryHelpers 拆成读和写两个文件",
  "Skua.Fleet/Private/RegistryHelpers.ps1", "refactor")
q("windows-registry", S, "en", "Import the vendor's .reg file for the new label printers on all "
  "warehouse machines", "dsc/Printers.ps1", "edit", "build")

# --------------------------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------------------------
_CJK = re.compile(r"[\u3400-\u9fff]")


def _glob_to_regex(pat):
    """Gitignore-style glob (subset): '**' spans directories, '*' and '?' stay in one segment."""
    out, i = [], 0
    while i < len(pat):
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("/**", i) and i + 3 == len(pat):
            out.append("/.*")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif pat[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pat[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pat[i]))
            i += 1
    return "".join(out)


def gitignore_match(pattern, path):
    """Does gitignore pattern `pattern` (no negation, no trailing slash) cover file `path`?"""
    assert not pattern.startswith("!") and not pattern.endswith("/"), pattern
    anchored = "/" in pattern
    pat = pattern.lstrip("/")
    rx = re.compile(_glob_to_regex(pat))
    parts = path.split("/")
    if anchored:
        # the file itself, or any leading directory of it (a matched directory covers its contents)
        return any(rx.fullmatch("/".join(parts[:n])) for n in range(1, len(parts) + 1))
    # no slash: matches a file or directory name at any depth
    return any(rx.fullmatch(part) for part in parts)


def path_matches(patterns, path):
    return any(gitignore_match(p, path) for p in patterns)


def forbidden_kind(r, qq):
    s = r["selectors"]
    if r["state"] == "superseded":
        return "superseded"
    if r["state"] == "forgotten":
        return "tombstoned"
    if r["state"] == "one-off":
        return "one-off"
    if r["project"] is not None and r["project"] != qq["project"]:
        return "other-repo"
    if s["paths"] and qq["path"] is not None and not path_matches(s["paths"], qq["path"]):
        return "path-mismatch"
    if s["operations"] and qq["operation"] is not None and qq["operation"] not in s["operations"]:
        return "operation-mismatch"
    if s["phases"] and qq["phase"] is not None and qq["phase"] not in s["phases"]:
        return "phase-mismatch"
    return None


def grade(r, qq):
    """2: explicit rule of the request's topic; 1: inferred rule of the topic, rule of a related
    topic, or rule that fires on the request's operation (triggerOps)."""
    if r["topic"] in ("noise", "core"):
        return 0
    topics = {r["topic"]} | set(r.get("also", []))
    g = 0
    if qq["topic"] in topics:
        g = 2 if r["authority"] == "explicit" else 1
    elif topics & set(TOPICS[qq["topic"]]["related"]):
        g = 1
    if qq["operation"] is not None and qq["operation"] in r["triggerOps"]:
        g = max(g, 1)
    return g


def label(qq):
    forbidden, relevant, coreprof = {}, {}, []
    for r in RECORDS:
        f = forbidden_kind(r, qq)
        if f:
            forbidden[r["key"]] = f
        elif r["topic"] == "core":
            coreprof.append(r["key"])
        else:
            g = grade(r, qq)
            if g:
                relevant[r["key"]] = g
    return relevant, forbidden, coreprof


def build():
    rng = random.Random(SEED)
    queries = []
    order = list(range(len(Q)))
    rng.shuffle(order)  # interleave topics and projects; fixed by the seed
    for n, i in enumerate(order, 1):
        qq = dict(Q[i])
        rel, forb, cp = label(qq)
        queries.append({"key": "mq%03d" % n, "topic": qq["topic"], "project": qq["project"],
                        "lang": qq["lang"], "task": qq["task"], "path": qq["path"],
                        "operation": qq["operation"], "phase": qq["phase"],
                        "contextBudget": qq["contextBudget"], "relevant": rel,
                        "forbidden": forb, "coreProfile": cp})
    session = []
    for n, p in enumerate(PROJECT_NAMES, 1):
        must = [r["key"] for r in RECORDS if r["project"] == p and r["state"] == "live"
                and r["trap"] in ("standing", "signal")]
        cp = [r["key"] for r in RECORDS if r["topic"] == "core" and r["state"] == "live"
              and r["project"] in (None, p)]
        session.append({"key": "ss%02d" % n, "project": p, "mustKnow": must, "coreProfile": cp})
    return {"schema": SCHEMA, "name": NAME, "seed": SEED, "projects": PROJECTS, "topics": TOPICS,
            "defaultContextBudget": DEFAULT_BUDGET, "records": RECORDS, "queries": queries,
            "sessionStart": session}


# --------------------------------------------------------------------------------------------
# Consistency checks
# --------------------------------------------------------------------------------------------
def check(data):
    errors = []

    def err(msg):
        errors.append(msg)

    recs = data["records"]
    R = {r["key"]: r for r in recs}
    if len(R) != len(recs):
        err("duplicate record keys")
    names = set(PROJECT_NAMES)
    remotes = [p["remote"] for p in data["projects"]]
    if len(set(remotes)) != len(remotes) or not all("example.invalid" in x for x in remotes):
        err("project remotes must be distinct and on example.invalid")
    for t, v in data["topics"].items():
        for u in v["related"]:
            if u not in data["topics"] or t not in data["topics"][u]["related"]:
                err("topic relation %s -> %s missing or not symmetric" % (t, u))

    # ---- records
    of_targets = Counter()
    for r in recs:
        k, s = r["key"], r["selectors"]
        if r["topic"] not in data["topics"] and r["topic"] not in ("noise", "core"):
            err("%s: unknown topic %s" % (k, r["topic"]))
        if r["project"] is not None and r["project"] not in names:
            err("%s: unknown project" % k)
        if r["scope"] != ("project" if r["project"] else "global"):
            err("%s: scope does not match project" % k)
        if r["trap"] not in TRAPS:
            err("%s: unknown trap %r" % (k, r["trap"]))
        if set(s) != {"paths", "tasks", "operations", "phases"}:
            err("%s: selector keys" % k)
        for o in s["operations"] + r["triggerOps"]:
            if o not in OPERATIONS:
                err("%s: unknown operation %s" % (k, o))
        for ph in s["phases"]:
            if ph not in PHASES:
                err("%s: unknown phase %s" % (k, ph))
        if not set(r["triggerOps"]) <= set(s["operations"]):
            err("%s: triggerOps must be among its operations selector" % k)
        lop = r["load"]["op"]
        if lop not in ("remember", "apply", "signal", "correct", "supersede"):
            err("%s: load op %s" % (k, lop))
        if (lop in ("apply", "supersede")) != (r["authority"] == "inferred"):
            err("%s: authority %s does not fit load %s" % (k, r["authority"], lop))
        if lop in ("correct", "supersede"):
            t = R.get(r["load"].get("of"))
            if t is None:
                err("%s: load.of refers to a missing record" % k)
                continue
            of_targets[t["key"]] += 1
            if t["state"] != "superseded" or t["trap"] != "superseded":
                err("%s: target %s is not a superseded record" % (k, t["key"]))
            if r["state"] != "live":
                err("%s: a correction must be live" % k)
            if t["key"] >= k:
                err("%s: target must come earlier in the file" % k)
            for f in ("topic", "project", "scope", "memoryType", "memoryClass"):
                if t[f] != r[f]:
                    err("%s: %s differs from its target" % (k, f))
            if lop == "correct":
                # `correct` only replaces the text: everything else is the target's
                if t["title"] != r["title"] or t["selectors"] != r["selectors"] or \
                        t["authority"] != r["authority"] or t["load"]["op"] != "remember":
                    err("%s: correct must keep title/selectors of a remembered target" % k)
            else:
                if t["load"]["op"] != "apply":
                    err("%s: supersede should replace an applied record" % k)
            if t["text"] == r["text"]:
                err("%s: corrected text must differ from the old one" % k)
        elif "of" in r["load"]:
            err("%s: stray load.of" % k)
        st, trap = r["state"], r["trap"]
        if st not in ("live", "superseded", "forgotten", "one-off"):
            err("%s: state %s" % (k, st))
        if (st == "superseded") != (trap == "superseded"):
            err("%s: superseded state/trap mismatch" % k)
        if (st == "forgotten") != (trap == "tombstoned"):
            err("%s: forgotten state/trap mismatch" % k)
        if (st == "one-off") != (trap == "one-off"):
            err("%s: one-off state/trap mismatch" % k)
        if st == "one-off" and (lop != "signal" or r["project"] is None or any(s.values())):
            err("%s: one-off must be a project signal without selectors" % k)
        if trap == "signal" and (lop != "signal" or st != "live" or any(s.values())
                                 or r["authority"] != "explicit"):
            err("%s: live signal must be explicit, live and without selectors" % k)
        if lop == "signal" and trap not in ("signal", "one-off"):
            err("%s: signal load for a non-signal record" % k)
        if trap in ("standing", "noise") and (any(s.values()) or st != "live"
                                             or r["authority"] != "explicit"):
            err("%s: %s record must be live, explicit and without selectors" % (k, trap))
        if trap == "standing" and r["project"] is None:
            err("%s: standing rules are project rules" % k)
        if trap == "repo-copy":
            g = [x for x in recs if x["project"] is None and x["text"] == r["text"]
                 and x["state"] == "live"]
            if not g or r["project"] is None or r["selectors"] != g[0]["selectors"]:
                err("%s: repo-copy must copy a live global rule into a project" % k)
        if trap == "observed" and (r["authority"] != "inferred" or not r["text"].startswith("Observed")):
            err("%s: observed must be inferred" % k)
        if trap == "episode" and (r["memoryType"] != "personal-episode" or s["paths"] or
                                  s["operations"] or s["phases"] or "also" not in r):
            err("%s: episode shape" % k)
        if "also" in r:
            if trap != "episode":
                err("%s: only episodes carry also" % k)
            for t in r["also"]:
                if t not in data["topics"] or t == r["topic"]:
                    err("%s: bad also topic %s" % (k, t))
        if trap == "path-variant" and not s["paths"]:
            err("%s: path-variant without paths" % k)
        if trap == "operation-variant" and not s["operations"]:
            err("%s: operation-variant without operations" % k)
        if trap == "phase-variant" and not s["phases"]:
            err("%s: phase-variant without phases" % k)
        if r["topic"] == "core" and r["memoryType"] != "core-profile":
            err("%s: core record type" % k)
        if r["memoryType"] == "core-profile" and (r["topic"] != "core" or any(s.values())):
            err("%s: core-profile records are topic core without selectors" % k)
        if r["topic"] == "noise" and trap != "noise":
            err("%s: noise topic" % k)
        for p in s["paths"]:
            if p.startswith("!") or p.endswith("/") or "\\" in p or "[" in p:
                err("%s: unsupported path pattern %s" % (k, p))
    for k, n in of_targets.items():
        if n != 1:
            err("%s is replaced %d times" % (k, n))
    for r in recs:
        if r["state"] == "superseded" and of_targets[r["key"]] != 1:
            err("%s: superseded record without a replacement" % r["key"])

    # ---- queries
    qkeys = [x["key"] for x in data["queries"]]
    if len(set(qkeys)) != len(qkeys):
        err("duplicate query keys")
    tasks_seen = Counter(x["task"] for x in data["queries"])
    for t, n in tasks_seen.items():
        if n > 1:
            err("duplicate task text: %s" % t)
    all_patterns = sorted({p for r in recs for p in r["selectors"]["paths"]})
    for x in data["queries"]:
        k = x["key"]
        if x["project"] not in names or x["topic"] not in data["topics"]:
            err("%s: project/topic" % k)
        if x["operation"] is not None and x["operation"] not in OPERATIONS:
            err("%s: operation" % k)
        if x["phase"] is not None and x["phase"] not in PHASES:
            err("%s: phase" % k)
        if x["lang"] not in ("en", "zh") or (x["lang"] == "zh") != bool(_CJK.search(x["task"])):
            err("%s: lang does not fit the task text" % k)
        if x["path"] is not None:
            if x["path"].startswith("/") or x["path"].endswith("/") or "\\" in x["path"]:
                err("%s: path must be relative with '/'" % k)
            # gitignore-style and plain fnmatch must agree on every pattern in the data
            for p in all_patterns:
                gi = gitignore_match(p, x["path"])
                fn = fnmatch.fnmatchcase(x["path"], p.lstrip("/"))
                if gi != fn:
                    err("%s: gitignore and fnmatch disagree on %s vs %s" % (k, p, x["path"]))
        for key in list(x["relevant"]) + list(x["forbidden"]) + list(x["coreProfile"]):
            if key not in R:
                err("%s: unknown record %s" % (k, key))
        if set(x["relevant"]) & set(x["forbidden"]):
            err("%s: relevant and forbidden overlap" % k)
        if set(x["coreProfile"]) & (set(x["forbidden"]) | set(x["relevant"])):
            err("%s: core profile overlaps labels" % k)
        if not x["relevant"]:
            err("%s: no relevant record" % k)
        if not any(g == 2 for g in x["relevant"].values()):
            err("%s: no grade-2 record" % k)
        # recompute every label independently of build()
        rel, forb, cp = label(x)
        if rel != x["relevant"] or forb != x["forbidden"] or cp != x["coreProfile"]:
            err("%s: labels are not reproducible" % k)
        for key, g in x["relevant"].items():
            r = R[key]
            if r["state"] != "live" or r["topic"] in ("noise", "core"):
                err("%s: %s relevant but not a live rule" % (k, key))
            if g not in (1, 2):
                err("%s: grade %r" % (k, g))
            if g == 2 and not (r["authority"] == "explicit" and
                               (r["topic"] == x["topic"] or x["topic"] in r.get("also", []))):
                err("%s: %s grade 2 but not an explicit rule of the topic" % (k, key))
        for key, kind in x["forbidden"].items():
            r = R[key]
            ok = {
                "superseded": r["state"] == "superseded",
                "tombstoned": r["state"] == "forgotten",
                "one-off": r["state"] == "one-off",
                "other-repo": r["state"] == "live" and r["project"] not in (None, x["project"]),
                "path-mismatch": r["state"] == "live" and r["project"] in (None, x["project"])
                and bool(r["selectors"]["paths"]) and x["path"] is not None
                and not path_matches(r["selectors"]["paths"], x["path"]),
                "operation-mismatch": r["state"] == "live" and bool(r["selectors"]["operations"])
                and x["operation"] is not None
                and x["operation"] not in r["selectors"]["operations"],
                "phase-mismatch": r["state"] == "live" and bool(r["selectors"]["phases"])
                and x["phase"] is not None and x["phase"] not in r["selectors"]["phases"],
            }.get(kind, False)
            if not ok:
                err("%s: %s forbidden as %s without cause" % (k, key, kind))
        # every superseded, forgotten and one-off record is forbidden everywhere
        for r in recs:
            if r["state"] != "live" and r["key"] not in x["forbidden"]:
                err("%s: non-live %s not forbidden" % (k, r["key"]))
            if r["state"] == "live" and r["project"] not in (None, x["project"]) and \
                    x["forbidden"].get(r["key"]) != "other-repo":
                err("%s: %s of another repository not forbidden" % (k, r["key"]))
        # the core profile must fit the budget with room to spare
        core_chars = sum(len(R[c]["text"]) for c in x["coreProfile"])
        if core_chars > x["contextBudget"] // 2:
            err("%s: core profile (%d chars) too large for budget %d" % (k, core_chars,
                                                                         x["contextBudget"]))
        expected_core = [r["key"] for r in recs if r["topic"] == "core" and r["state"] == "live"
                         and r["project"] in (None, x["project"])]
        if x["coreProfile"] != expected_core:
            err("%s: core profile" % k)

    # ---- session start
    ss_projects = [e["project"] for e in data["sessionStart"]]
    if sorted(ss_projects) != sorted(names):
        err("sessionStart must have one entry per project")
    for e in data["sessionStart"]:
        for key in e["mustKnow"] + e["coreProfile"]:
            if key not in R:
                err("sessionStart %s: unknown record %s" % (e["key"], key))
                continue
            r = R[key]
            if r["state"] != "live" or r["project"] not in (None, e["project"]):
                err("sessionStart %s: %s not live/visible" % (e["key"], key))
        for key in e["mustKnow"]:
            r = R.get(key)
            if r and (r["trap"] not in ("standing", "signal") or r["authority"] != "explicit"):
                err("sessionStart %s: %s is not a standing rule" % (e["key"], key))
        if not e["mustKnow"]:
            err("sessionStart %s: empty mustKnow" % e["key"])
        for key in e["coreProfile"]:
            if R.get(key, {}).get("memoryType") != "core-profile":
                err("sessionStart %s: %s is not a core-profile record" % (e["key"], key))

    # ---- every non-noise live rule is needed by at least one request
    used = set()
    for x in data["queries"]:
        used |= set(x["relevant"])
    for r in recs:
        if r["state"] == "live" and r["topic"] not in ("noise", "core") and r["key"] not in used:
            err("%s (%s, %s, %s) is relevant to no request" % (r["key"], r["project"], r["topic"],
                                                              r["trap"]))
    # ---- every trap kind is present
    traps = Counter(r["trap"] for r in recs)
    for t in TRAPS:
        if not traps[t]:
            err("trap %s missing" % t)
    kinds = Counter(v for x in data["queries"] for v in x["forbidden"].values())
    for kind in ("superseded", "tombstoned", "one-off", "other-repo", "path-mismatch",
                 "operation-mismatch", "phase-mismatch"):
        if not kinds[kind]:
            err("forbidden kind %s never used" % kind)
    return errors


def summary(data):
    recs, qs = data["records"], data["queries"]
    print("records: %d" % len(recs))
    for t, n in sorted(Counter(str(r["trap"]) for r in recs).items()):
        print("  trap %-18s %d" % (t, n))
    print("  zh records: %d" % sum(1 for r in recs if _CJK.search(r["text"])))
    print("queries: %d  %s" % (len(qs), dict(Counter(x["lang"] for x in qs))))
    print("  by topic: %s" % dict(Counter(x["topic"] for x in qs)))
    print("  by project: %s" % dict(Counter(x["project"] for x in qs)))
    nrel = [len(x["relevant"]) for x in qs]
    print("  relevant per request: mean %.2f, min %d, max %d" % (sum(nrel) / len(nrel), min(nrel),
                                                               max(nrel)))
    print("  ceiling P@5: %.3f" % (sum(min(n, 5) / 5 for n in nrel) / len(nrel)))
    print("  forbidden kinds: %s" % dict(Counter(v for x in qs for v in x["forbidden"].values())))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else OUT
    data = build()
    errors = check(data)
    if errors:
        for e in errors:
            print("CHECK FAILED:", e, file=sys.stderr)
        sys.exit(1)
    text = json.dumps(data, ensure_ascii=False, indent=1)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text + "\n")
    # reload what was written and check it again
    with open(out, encoding="utf-8") as fh:
        again = json.load(fh)
    errors = check(again)
    if errors or again != json.loads(text):
        for e in errors:
            print("CHECK FAILED after reload:", e, file=sys.stderr)
        sys.exit(1)
    summary(again)
    print("wrote %s" % out)


if __name__ == "__main__":
    main()
