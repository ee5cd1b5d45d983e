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

lab_image_dir() { echo "$LAB_CACHE/image-$(lab_image_key)"; }
