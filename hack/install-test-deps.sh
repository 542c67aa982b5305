#!/usr/bin/env bash
# Installs what the end-to-end tests need when it is missing: Debian's docker-registry, skopeo, kubectl and etcd-server
# (etcd for the real CRD API server, which hack/build-apiserver.sh builds).
set -euo pipefail
missing=()
command -v docker-registry >/dev/null 2>&1 || [ -x /usr/bin/docker-registry ] || missing+=(docker-registry)
command -v skopeo >/dev/null 2>&1 || missing+=(skopeo)
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v kubectl >/dev/null 2>&1 || missing+=(kubectl)
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
