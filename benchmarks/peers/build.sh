#!/usr/bin/env bash
# Builds the Lucene peer of the end-to-end benchmark into build/peers/:
#   build/peers/classes/LuceneIndexer*.class, LuceneTermsHash*.class
#   build/peers/lucene-core.jar.path  the lucene-core jar it was compiled against
#   build/peers/lucene-indexer     launcher: JAVA_OPTS/-Xmx from the environment
#   build/peers/search-classes/LuceneSearch*.class and the launcher
#   build/peers/lucene-search (the search comparison, docs/benchmarks-search.md;
#   it also needs lucene-analyzers-common for WhitespaceAnalyzer)
#   benchmarks/peers/build.sh [--install]
# Compiles with javac against Debian's liblucene8-java (8.8.1; its jars are
# named lucene-core-8.7.0.jar etc. but hold 8.8.1, see the README). Only
# lucene-core is needed: StandardAnalyzer lives there since Lucene 7.
# Idempotent: recompiles only when the source or the jar changed.
# --install: apt-get install the Debian packages it needs when missing
# (liblucene8-java, openjdk-17-jdk-headless); without it, a missing package is
# an error that names it.
set -euo pipefail
cd "$(dirname "$0")/../.."

install=0
[ "${1:-}" = "--install" ] && install=1

need=()
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
find_core_jar() {
  if [ -n "${LUCENE_CORE_JAR:-}" ]; then echo "$LUCENE_CORE_JAR"; return; fi
  local j
  for j in /usr/share/java/lucene-core-8.*.jar \
           /usr/share/maven-repo/org/apache/lucene/lucene-core/8.x/lucene-core-8.x.jar; do
    if [ -f "$j" ]; then echo "$j"; return; fi
  done
}
find_analyzers_jar() {
  if [ -n "${LUCENE_ANALYZERS_JAR:-}" ]; then echo "$LUCENE_ANALYZERS_JAR"; return; fi
  local j
  for j in /usr/share/java/lucene-analyzers-common-8.*.jar \
           /usr/share/maven-repo/org/apache/lucene/lucene-analyzers-common/8.x/lucene-analyzers-common-8.x.jar; do
    if [ -f "$j" ]; then echo "$j"; return; fi
  done
}
{ [ -n "$(find_core_jar)" ] && [ -n "$(find_analyzers_jar)" ]; } || need+=(liblucene8-java)

if [ ${#need[@]} -gt 0 ]; then
  if [ $install -eq 0 ]; then
    echo "peers/build.sh: missing Debian packages: ${need[*]} (rerun with --install)" >&2
    exit 1
  fi
  echo "peers/build.sh: installing ${need[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  if ! $sudo apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null; then
    $sudo apt-get update -q >/dev/null
    $sudo apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
  fi
fi

core_jar="$(find_core_jar)"
[ -n "$core_jar" ] || { echo "peers/build.sh: lucene-core 8 jar not found" >&2; exit 1; }
core_jar="$(readlink -f "$core_jar")"

analyzers_jar="$(find_analyzers_jar)"
[ -n "$analyzers_jar" ] || { echo "peers/build.sh: lucene-analyzers-common 8 jar not found" >&2; exit 1; }
analyzers_jar="$(readlink -f "$analyzers_jar")"
out=build/peers
mkdir -p "$out"

# LuceneSearch (lucene-core + lucene-analyzers-common).
search_src=benchmarks/peers/LuceneSearch.java
search_classes=$out/search-classes
search_stamp=$out/.search-stamp
search_want="$(cat "$search_src" benchmarks/peers/build.sh | sha256sum | cut -d' ' -f1) $core_jar $analyzers_jar $(javac -version 2>&1)"
if [ ! -f "$search_classes/LuceneSearch.class" ] || [ ! -f "$search_stamp" ] ||
   [ "$(cat "$search_stamp")" != "$search_want" ]; then
  rm -rf "$search_classes"
  mkdir -p "$search_classes"
  javac -nowarn -encoding UTF-8 --release 11 -cp "$core_jar:$analyzers_jar" -d "$search_classes" "$search_src"
  echo "$core_jar:$analyzers_jar" >"$out/lucene-search.classpath"
  cat >"$out/lucene-search" <<'EOF'
#!/usr/bin/env bash
# Runs LuceneSearch (written by benchmarks/peers/build.sh). JVM flags come
# from JAVA_OPTS (default: a 2 GiB heap; the index itself is memory-mapped).
here="$(cd "$(dirname "$0")" && pwd)"
exec java ${JAVA_OPTS:--Xms2g -Xmx2g} -cp "$here/search-classes:$(cat "$here/lucene-search.classpath")" \
  LuceneSearch "$@"
EOF
  chmod +x "$out/lucene-search"
  echo "$search_want" >"$search_stamp"
  echo "peers/build.sh: built $search_classes" >&2
fi

src=benchmarks/peers/LuceneIndexer.java
# LuceneTermsHash: the terms-hash microbenchmark peer (scripts/bench_terms_hash.sh --with-lucene)
ths_src=benchmarks/peers/LuceneTermsHash.java
out=build/peers
classes=$out/classes
stamp=$out/.stamp
want="$(cat "$src" "$ths_src" benchmarks/peers/build.sh | sha256sum | cut -d' ' -f1) $core_jar $(stat -c %Y "$core_jar") $(javac -version 2>&1)"
if [ -f "$classes/LuceneIndexer.class" ] && [ -f "$classes/LuceneTermsHash.class" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi

rm -rf "$classes"
mkdir -p "$classes"
javac -nowarn -encoding UTF-8 --release 11 -cp "$core_jar" -d "$classes" "$src" "$ths_src"
echo "$core_jar" >"$out/lucene-core.jar.path"
rm -f "$out/classpath"
cat >"$out/lucene-indexer" <<'EOF'
#!/usr/bin/env bash
# Runs LuceneIndexer (written by benchmarks/peers/build.sh). JVM flags come
# from JAVA_OPTS; the default heap is 3 GiB (a 2 GB RAM buffer + 1 GB).
here="$(cd "$(dirname "$0")" && pwd)"
exec java ${JAVA_OPTS:--Xms3g -Xmx3g} -cp "$here/classes:$(cat "$here/lucene-core.jar.path")" \
  LuceneIndexer "$@"
EOF
chmod +x "$out/lucene-indexer"
echo "$want" >"$stamp"
echo "peers/build.sh: built $classes (lucene-core: $core_jar)" >&2
