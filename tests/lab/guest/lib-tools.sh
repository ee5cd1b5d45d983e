# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Helpers for the tools_* scenarios: the discovery and status tools built
# from tools/ are in /lab/tools.

TOOLS=/lab/tools
SRP_DISCOVER=$TOOLS/srp-discover
RDI_STATUS=$TOOLS/rdi-status

# tools_lines OUT: the add_target lines (id_ext=...) of a discovery output.
tools_lines() { grep '^id_ext=' <<<"$1"; }

# tools_login_line LINE RXE: write LINE to RXE's add_target; prints the new
# SCSI host number.
tools_login_line() {
	local before h
	before=$(lab_srp_hosts)
	echo "$1" > /sys/class/infiniband_srp/srp-$2-1/add_target || return 1
	for h in $(lab_srp_hosts); do
		grep -qx "$h" <<<"$before" || { echo "$h"; return 0; }
	done
	return 1
}

tools_logout_all() {
	local p
	for p in /sys/class/srp_remote_ports/port-*; do
		[ -e "$p/delete" ] && echo 1 > "$p/delete"
	done
	lab_wait 30 sh -c '[ -z "$(ls /sys/class/srp_remote_ports/)" ]'
}

# tools_srp_host_count: number of ib_srp SCSI hosts.
tools_srp_host_count() { lab_srp_hosts | wc -l; }

# tools_json_flat: flatten JSON on stdin into "path=value" lines, e.g.
# srp[0].rport.state=running; strings lose their quotes. Fails on input
# that is not well-formed JSON.
tools_json_flat() {
	awk '
	function err(m) { print "json: " m " at offset " pos > "/dev/stderr"; bad = 1; exit 1 }
	function ws() { while (pos <= n && index(" \t\n\r", substr(s, pos, 1))) pos++ }
	function str(   out, c) {
		if (substr(s, pos, 1) != "\"") err("string expected")
		pos++; out = ""
		while (pos <= n) {
			c = substr(s, pos, 1)
			if (c == "\\") { out = out substr(s, pos + 1, 1); pos += 2; continue }
			if (c == "\"") { pos++; return out }
			out = out c; pos++
		}
		err("unterminated string")
	}
	function value(path,   c, k, i, m) {
		ws(); c = substr(s, pos, 1)
		if (c == "{") {
			pos++; ws()
			if (substr(s, pos, 1) == "}") { pos++; return }
			for (;;) {
				ws(); k = str(); ws()
				if (substr(s, pos, 1) != ":") err(": expected")
				pos++
				value(path == "" ? k : path "." k)
				ws(); c = substr(s, pos, 1); pos++
				if (c == "}") return
				if (c != ",") err(", or } expected")
			}
		}
		if (c == "[") {
			pos++; ws(); i = 0
			if (substr(s, pos, 1) == "]") { pos++; print path "#=0"; return }
			for (;;) {
				value(path "[" i "]"); i++
				ws(); c = substr(s, pos, 1); pos++
				if (c == "]") { print path "#=" i; return }
				if (c != ",") err(", or ] expected")
			}
		}
		if (c == "\"") { print path "=" str(); return }
		if (match(substr(s, pos), /^(true|false|null|-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)/)) {
			print path "=" substr(s, pos, RLENGTH); pos += RLENGTH; return
		}
		err("value expected")
	}
	{ s = s $0 "\n" }
	END { n = length(s); pos = 1; value(""); ws(); if (!bad && pos <= n) err("trailing data"); exit bad }
	'
}

# tools_json_valid JSON: JSON is well-formed (python3's json module parses
# all of it) and an object; prints the parser's error otherwise.
tools_json_valid() {
	python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError as e:
    sys.exit("not well-formed JSON: %s" % e)
if not isinstance(d, dict):
    sys.exit("top level is a %s, not an object" % type(d).__name__)
' <<<"$1"
}

# tools_json_get FLAT PATH: the value at PATH in flattened JSON FLAT.
tools_json_get() { grep -m1 "^$2=" <<<"$1" | cut -d= -f2-; }

# tools_json_eq FLAT PATH VALUE: PATH is in FLAT and its value is VALUE, a
# non-empty one (an absent field and an unreadable attribute both read as
# "" and must not compare equal).
tools_json_eq() {
	local v
	grep -q "^$2=" <<<"$1" || { echo "no field $2"; return 1; }
	v=$(tools_json_get "$1" "$2")
	[ -n "$3" ] && [ "$v" = "$3" ] || { echo "$2: '$v', expected '$3'"; return 1; }
}

# tools_table_col TABLE ROW HEADER: the field under HEADER in the row of a
# rdi-status table whose first field is ROW (fields split on blanks).
tools_table_col() {
	awk -v row="$2" -v col="$3" '
		$1 == "HOST" { for (i = 1; i <= NF; i++) if ($i == col) n = i }
		n && $1 == row { print $n; exit }' <<<"$1"
}

# Kernel interfaces srp-discover uses (rdma-core's service loads them on a
# normal system).
tools_modules_up() { modprobe ib_umad && modprobe rdma_ucm; }

# tools_host_on RXE: SCSI host numbers of the ib_srp logins on RXE.
tools_host_on() {
	local h
	for h in $(lab_srp_hosts); do
		[ "$(cat /sys/class/scsi_host/host$h/local_ib_device)" = "$1" ] && echo "$h"
	done
}

tools_has_host_on() { [ -n "$(tools_host_on "$1")" ]; }

# tools_mpath_ok NMAPS NPATHS: NMAPS LIO maps, each with NPATHS paths.
tools_mpath_ok() {
	local out
	out=$(multipath -ll 2>/dev/null)
	[ "$(grep -c LIO-ORG <<<"$out")" -eq "$1" ] &&
	[ "$(grep -cE '[0-9]+:0:0:[0-9]+ sd' <<<"$out")" -eq $(($1 * $2)) ]
}

# tools_srpt_port_enable RXE 0|1: disable or enable the target port on RXE.
tools_srpt_port_enable() {
	local port
	port=$(cut -d: -f5-8 /sys/class/infiniband/$1/ports/1/gids/0)
	echo "$2" > $CFS/srpt/$port/$port/enable
}

# tools_srpt_down: take the LIO SRP target down and unload ib_srpt, so that
# no device management agent answers on the rxe ports (ib_srpt registers
# one on every port it finds). Every target port, its LUNs and ACLs go; the
# backstores stay. lab_srpt_up brings it all back as a boot's first SRP
# scenario finds it. Fails if an SRP initiator is still logged in (its
# session would be cut) or ib_srpt does not unload.
tools_srpt_down() {
	local wwn tpg
	[ -d /sys/module/ib_srpt ] || return 0
	if [ -n "$(lab_srp_hosts)" ]; then
		echo "ib_srp hosts still logged in: $(lab_srp_hosts | tr '\n' ' ')"
		return 1
	fi
	for wwn in $CFS/srpt/*/; do
		[ -d "$wwn" ] && [ "${wwn%/}" != $CFS/srpt/discovery_auth ] || continue
		for tpg in "$wwn"*/; do
			[ -e "$tpg/enable" ] || continue
			lab_srpt_tpg_rm "$tpg" || return 1
		done
		rmdir "$wwn" || return 1
	done
	[ ! -d $CFS/srpt ] || rmdir $CFS/srpt || return 1
	lab_unload ib_srpt
}

# tools_status_count KIND N: rdi-status --json lists N entries of KIND.
tools_status_count() {
	$RDI_STATUS --json | tools_json_flat | grep -qx "$1#=$2"
}
