#!/bin/sh
# Set-up and build of the native harness (called by NativeHarness.build, or by hand):
#   1. install the pinned Debian -dev packages that are missing (apt-get update only then);
#   2. cmake configure + build into build/<compiler>-<profile>.
# usage: setup.sh [--profile speed|size] [--compiler gcc|clang] [--deps-only] [--valgrind-only]
# --valgrind-only installs only valgrind (for `serbench run --measure instructions`, any harness).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
profile=speed
compiler=gcc
deps_only=0
valgrind_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --profile) profile=$2; shift 2 ;;
    --compiler) compiler=$2; shift 2 ;;
    --deps-only) deps_only=1; shift ;;
    --valgrind-only) valgrind_only=1; shift ;;
    *) echo "setup.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case $compiler in default) compiler=gcc ;; gcc|clang) ;; *) echo "setup.sh: compiler must be gcc or clang" >&2; exit 2 ;; esac
case $profile in speed|size) ;; *) echo "setup.sh: profile must be speed or size" >&2; exit 2 ;; esac

# Exact versions `apt-cache policy` shows on Debian 12 (bookworm); recorded in docs/libraries.md.
PKGS="
rapidjson-dev=1.1.0+dfsg2-7.1
libmsgpack-dev=4.0.0-3
libmsgpack-cxx-dev=4.1.3-1
libbson-dev=1.23.1-1+deb12u3
libyajl-dev=2.1.0-3+deb12u2
libjansson-dev=2.14-2
libsimdjson-dev=3.0.1-1
nlohmann-json3-dev=3.11.2-2
libjson-c-dev=0.16-2
libcjson-dev=1.7.15-1+deb12u4
libjsoncpp-dev=1.9.5-4
libcbor-dev=0.8.0-2+b1
libmpack-dev=1.0.5-3
libjsonparser-dev=1.1.0-2
libmongoclient-dev=1.1.3-3.1+b1
libboost1.74-dev=1.74.0+ds1-21
libprotobuf-dev=3.21.12-3+deb12u1
protobuf-compiler=3.21.12-3+deb12u1
libflatbuffers-dev=2.0.8+dfsg1-2
flatbuffers-compiler=2.0.8+dfsg1-2
libcapnp-dev=0.9.2-2
capnproto=0.9.2-2
libavro-dev=1.11.1-1
libthrift-dev=0.17.0-2+b2
thrift-compiler=0.17.0-2+b2
libcereal-dev=1.3.2+dfsg-4
valgrind=1:3.19.0-1
"
TOOLS="cmake ninja-build pkg-config g++"
# valgrind counts instructions (`serbench run --measure instructions`; docs/methodology.md)
if [ "$valgrind_only" = 1 ]; then
  PKGS="valgrind=1:3.19.0-1"
  TOOLS=""
fi
if [ "$compiler" = clang ]; then
  PKGS="$PKGS clang=1:14.0-55.7~deb12u1 lld=1:14.0-55.7~deb12u1"
fi

missing=""
for p in $PKGS; do
  name=${p%%=*}
  want=${p#*=}
  have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || true)
  [ "$have" = "$want" ] || missing="$missing $p"
done
for t in $TOOLS; do
  dpkg-query -W -f='${Status}' "$t" 2>/dev/null | grep -q "install ok installed" || missing="$missing $t"
done
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "setup.sh: installing$missing" >&2
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
fi
[ "$valgrind_only" = 1 ] && exit 0

# Boost.JSON (header-only) needs Boost >= 1.75, but Debian 12's libboost1.81-dev conflicts with the
# libboost1.74-dev installed on the system. So the pinned .deb is downloaded (`apt-get download`, no
# root needed) and unpacked with `dpkg -x` into build/deps/ (headers only, nothing installed); CMake
# reads the headers and the version from there. All of Boost's headers, Boost.JSON's and the
# Boost.Container/System ones it uses, are in this one package.
BOOST_PKG=libboost1.81-dev
BOOST_VER=1.81.0-5+deb12u1
deps="$here/build/deps"
boost_root="$deps/boost-$BOOST_VER"
if [ "$(cat "$boost_root/VERSION" 2>/dev/null || true)" != "$BOOST_VER" ]; then
  mkdir -p "$deps"
  deb="$deps/${BOOST_PKG}_${BOOST_VER}_$(dpkg --print-architecture).deb"  # apt-get download's name
  if [ ! -f "$deb" ]; then
    echo "setup.sh: downloading $BOOST_PKG=$BOOST_VER into $deps" >&2
    if ! (cd "$deps" && apt-get download -q "$BOOST_PKG=$BOOST_VER"); then
      sudo=""
      [ "$(id -u)" = 0 ] || sudo=sudo
      $sudo apt-get update -q  # only when the pinned version is not in the package lists
      (cd "$deps" && apt-get download -q "$BOOST_PKG=$BOOST_VER")
    fi
  fi
  got=$(dpkg-deb -W --showformat='${Package} ${Version}' "$deb")
  if [ "$got" != "$BOOST_PKG $BOOST_VER" ]; then
    echo "setup.sh: $deb is '$got', not $BOOST_PKG $BOOST_VER" >&2
    exit 1
  fi
  rm -rf "$boost_root" "$boost_root.tmp"
  dpkg -x "$deb" "$boost_root.tmp"
  printf '%s\n' "$BOOST_VER" >"$boost_root.tmp/VERSION"  # written last: marks a complete unpack
  mv "$boost_root.tmp" "$boost_root"
fi
[ "$deps_only" = 1 ] && exit 0

build="$here/build/$compiler-$profile"
if [ "$compiler" = clang ]; then
  cc=clang; cxx=clang++
else
  cc=gcc; cxx=g++
fi
gen=""
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
if [ ! -f "$build/CMakeCache.txt" ]; then
  # shellcheck disable=SC2086
  CC=$cc CXX=$cxx cmake -S "$here" -B "$build" $gen -DSB_PROFILE="$profile"
fi
cmake --build "$build" --parallel 2
