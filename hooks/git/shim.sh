#!/bin/sh
# comet-git-hook: 1
# The comet-git @HOOK@ hook, written by `comet hooks install`.  `comet hooks uninstall`
# removes it and puts back the hook it replaced, kept meanwhile as @HOOK@.comet-legacy.
# It prints nothing and never fails because of comet: its exit status is the replaced
# hook's (0 without one).  COMET_DISABLE=1 turns comet off for a command.

comet_python=@PYTHON@
comet_worker=@WORKER@
comet_hook=@HOOK@

comet_input=
if [ "$comet_hook" = post-rewrite ]; then
    # git writes the rewritten commits on stdin: read them once, for both readers.
    comet_input=$(cat)
fi

# The hook this one replaced.  Found by hook name, not "$0", so that it is still found when
# another hook manager renames this script to chain it in turn.
case $0 in
    */*) comet_legacy=${0%/*}/$comet_hook.comet-legacy ;;
    *) comet_legacy=./$comet_hook.comet-legacy ;;
esac
comet_status=0
if [ -x "$comet_legacy" ]; then
    if [ "$comet_hook" = post-rewrite ]; then
        if [ -n "$comet_input" ]; then printf '%s\n' "$comet_input"; fi | "$comet_legacy" "$@"
    else
        "$comet_legacy" "$@"
    fi
    comet_status=$?
fi

# Which commit and branch this call is about, read with builtins only (no fork): the worker
# runs detached and may start after the next commit has moved HEAD on.
comet_gitdir=${GIT_DIR:-.git}
if [ -f "$comet_gitdir" ]; then
    { read -r comet_line <"$comet_gitdir"; } 2>/dev/null
    comet_gitdir=${comet_line#gitdir: }
fi
comet_head=
comet_branch=
{ read -r comet_head <"$comet_gitdir/HEAD"; } 2>/dev/null
case $comet_head in
    "ref: "*)
        comet_branch=${comet_head#ref: }
        comet_common=$comet_gitdir
        if { read -r comet_line <"$comet_gitdir/commondir"; } 2>/dev/null; then
            case $comet_line in
                /*) comet_common=$comet_line ;;
                *) comet_common=$comet_gitdir/$comet_line ;;
            esac
        fi
        comet_head=
        { read -r comet_head <"$comet_common/$comet_branch"; } 2>/dev/null
        ;;
esac

# Both paths are gone when comet was uninstalled or its environment removed: do nothing then.
if [ "${COMET_DISABLE:-}" != 1 ] && [ -x "$comet_python" ] && [ -f "$comet_worker" ]; then
    if [ "${COMET_HOOK_SYNC:-}" = 1 ]; then
        COMET_HOOK_INPUT=$comet_input COMET_HOOK_HEAD=$comet_head COMET_HOOK_BRANCH=$comet_branch \
            "$comet_python" "$comet_worker" "$comet_hook" "$@" </dev/null >/dev/null 2>&1
    else
        # A ticket lets `comet journal flush` wait for this worker, which deletes it when done.
        # `command :` because a failed redirection of a plain `:` would end the whole script.
        comet_ticket=${COMET_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/comet}/run/pending/$$.$comet_hook
        command : 2>/dev/null >"$comet_ticket" || comet_ticket=
        COMET_HOOK_INPUT=$comet_input COMET_HOOK_TICKET=$comet_ticket \
            COMET_HOOK_HEAD=$comet_head COMET_HOOK_BRANCH=$comet_branch \
            "$comet_python" "$comet_worker" "$comet_hook" "$@" </dev/null >/dev/null 2>&1 &
    fi
fi

exit "$comet_status"
