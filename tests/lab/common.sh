# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Host-side helpers shared by the lab scripts (sourced, not run).

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
LAB_RELEASE=${LAB_RELEASE:-bookworm}
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-initiators/lab}

lab_log() { printf '[lab %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
lab_die() { lab_log "error: $*"; exit 1; }

# The Debian archive the host's apt uses, read at run time.
lab_mirror() {
	local uri
	uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' |
	      grep -v security | head -1)
	[ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list |
			       awk '{print $2}' | grep -v security | head -1)
	[ -n "$uri" ] || lab_die "no Debian mirror in the host's apt sources"
	echo "$uri"
}

lab_host_release() { . /etc/os-release && echo "$VERSION_CODENAME"; }

# lab_apt apt-get|apt-cache ARGS...: apt for the lab's release. The host's
# own release uses the host's apt; another release (e.g. trixie on a
# bookworm host) gets a private apt state under the cache, fed from the same
# archive, refreshed at most daily.
lab_apt() {
	local tool=$1 dir
	shift
	if [ "$LAB_RELEASE" = "$(lab_host_release)" ]; then
		"$tool" "$@"
		return
	fi
	dir=$LAB_CACHE/apt-$LAB_RELEASE
	local opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=-"
		    -o "Dir::State=$dir/state" -o "Dir::Cache=$dir/cache"
		    -o "Dir::State::status=/var/lib/dpkg/status")
	if [ ! -f "$dir/updated" ] || [ -n "$(find "$dir/updated" -mmin +1440)" ]; then
		mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
		echo "deb $(lab_mirror) $LAB_RELEASE main" > "$dir/sources.list"
		apt-get "${opts[@]}" update -q >&2 || lab_die "apt update for $LAB_RELEASE failed"
		touch "$dir/updated"
	fi
	"$tool" "${opts[@]}" "$@"
}

lab_kver() { "$LAB_DIR/kver"; }

# Cache key of the guest image: everything that goes into it.
lab_image_key() {
	{
		echo "$LAB_RELEASE"
		lab_kver
		cat "$LAB_DIR/image/packages" "$LAB_DIR/build-image" \
		    "$LAB_DIR/image/init"
	} | sha256sum | cut -c1-16
}

lab_image_dir() { echo "$LAB_CACHE/image-$LAB_RELEASE-$(lab_image_key)"; }

# lab_guest_slot: wait for a free guest slot on this machine and hold it
# until the calling script exits (file descriptor 8). TCG guests side by
# side share the host's cores and stretch every timing inside them, so by
# default one guest runs at a time (LAB_GUESTS raises that); boots started
# meanwhile, by any checkout, queue here in turn.
lab_guest_slot() {
	local i n=${LAB_GUESTS:-1} waited=0
	mkdir -p "$LAB_CACHE"
	while :; do
		for ((i = 0; i < n; i++)); do
			exec 8>"$LAB_CACHE/guest-slot.$i"
			flock -n 8 && break 2
		done
		[ $waited = 1 ] || lab_log "waiting for a guest slot (another lab guest runs on this machine)"
		waited=1
		sleep 5
	done
	[ $waited = 0 ] || lab_log "guest slot $i free"
	lab_guest_first
}

# lab_guest_first: the guest runs before other sessions' work on this host.
# Debian's kernel groups tasks by session (sched_autogroup) and shares the
# CPUs equally between groups whatever their nice, so a guest beside other
# sessions' "nice -n 19" builds got one share among many (a shared boot
# took 46 min beside other engineers' builds, 26 in CI), and TCG guests
# starved of CPU report RCU stalls. Raising this session's
# group puts guests ahead of builds (nice counts again inside the group).
lab_guest_first() {
	[ -w /proc/self/autogroup ] || return 0
	echo -10 > /proc/self/autogroup 2>/dev/null || lab_log "could not raise the guest's scheduling group"
}
