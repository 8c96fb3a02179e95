#!/usr/bin/env bash
# Local backing services for development and tests, without Docker:
#   PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) from the machine's Debian packages,
#   Apache Kafka 3.9.1 as a single-node KRaft broker+controller (127.0.0.1:9092), run straight from
#   the jars that Maven fetches from Maven Central (infra/kafka/pom.xml) into .cache/kafka/libs.
# With Docker, `docker compose up -d` (docker-compose.yml) gives the same three services instead.
# shellcheck disable=SC2016 # single-quoted `bash -c` bodies expand their own positional args
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/services.sh <command>

Commands:
  up      Make PostgreSQL, Redis and Kafka answer. PostgreSQL and Redis are started if they do not
          answer; Kafka is a no-op if a broker already answers on 127.0.0.1:$KAFKA_PORT (nothing is
          downloaded then), otherwise the jars are fetched once (Maven Central), the storage is
          formatted once, and the broker is started in the background and waited for (bounded by
          $KAFKA_START_TIMEOUT seconds).
  down    Stop the Kafka broker started by this script (SIGTERM, then SIGKILL). PostgreSQL and
          Redis are left running.
  status  Print which services answer. Exit code 0 if all three answer, 1 otherwise.
  reset   Stop Kafka (as `down`) and delete its data directory (all topics, offsets, groups).
          The next `up` formats fresh storage.
  broker --port P --controller-port C --data-dir DIR --work-dir DIR
          Run a private broker in the foreground (the tests' own brokers, started and stopped by
          libs/testing/src/kafka-broker.ts): the jars are fetched if needed, the configuration is
          written into the work dir, the data dir is formatted once, then this process becomes
          the broker's JVM (SIGTERM stops it). Same settings as the broker of `up`; a smaller heap
          and a faster-starting JVM unless KAFKA_HEAP_OPTS / KAFKA_JVM_PERFORMANCE_OPTS say otherwise.
  help    Show this help.

Environment (all optional):
  KAFKA_PORT             broker (PLAINTEXT) port on 127.0.0.1          [9092]
  KAFKA_CONTROLLER_PORT  KRaft controller port on 127.0.0.1            [9093]
  KAFKA_DATA_DIR         Kafka log.dirs (topics + KRaft metadata)      [<repo>/.cache/kafka/data]
  KAFKA_HEAP_OPTS        JVM heap flags for the broker                 [-Xms512m -Xmx512m]
  KAFKA_JVM_PERFORMANCE_OPTS  JVM GC/JIT flags for the broker          [G1, 20 ms pauses]
  KAFKA_START_TIMEOUT    seconds to wait for the broker to answer      [90]
  KAFKA_STOP_TIMEOUT     seconds to wait after SIGTERM before SIGKILL  [30]
  POSTGRES_PORT          PostgreSQL port to check on 127.0.0.1         [5432]
  REDIS_PORT             Redis port to check / start on 127.0.0.1      [6379]
  JAVA_HOME              java to run the broker with                   [java on PATH]

Files (under <repo>/.cache/kafka/, git-ignored):
  libs/ (+ libs/.complete marker)  mvn.log  data/  cluster.id  kafka.pid  kafka.log (+ .prev)
  server.properties  log4j.properties  tools-log4j.properties  probe-client.properties  services.lock

Readiness: a broker "answers" when a Kafka ApiVersions request sent over bash /dev/tcp gets a
well-formed reply (no Java needed, ~10 ms). After starting the broker, `up` also does a full
metadata round trip with kafka.admin.BrokerApiVersionsCommand from the broker's own jars.
EOF
}

# ---------------------------------------------------------------------------------------------
# Paths and settings
# ---------------------------------------------------------------------------------------------
SCRIPT_DIR="$(cd -- "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")" && pwd -P)"
REPO_ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"

KAFKA_POM="$REPO_ROOT/infra/kafka/pom.xml"
KAFKA_CACHE="$REPO_ROOT/.cache/kafka"
KAFKA_LIBS="$KAFKA_CACHE/libs"
KAFKA_LIBS_MARKER="$KAFKA_LIBS/.complete"
KAFKA_PROPS="$KAFKA_CACHE/server.properties"
KAFKA_LOG4J="$KAFKA_CACHE/log4j.properties"
KAFKA_TOOLS_LOG4J="$KAFKA_CACHE/tools-log4j.properties"
KAFKA_CLUSTER_ID_FILE="$KAFKA_CACHE/cluster.id"
KAFKA_LOG="$KAFKA_CACHE/kafka.log"
KAFKA_PID_FILE="$KAFKA_CACHE/kafka.pid"
KAFKA_LOCK="$KAFKA_CACHE/services.lock"

KAFKA_HOST=127.0.0.1
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_DATA_DIR="$(realpath -m -- "${KAFKA_DATA_DIR:-$KAFKA_CACHE/data}")"
KAFKA_HEAP_OPTS_SET="${KAFKA_HEAP_OPTS:-}"
KAFKA_JVM_PERFORMANCE_OPTS_SET="${KAFKA_JVM_PERFORMANCE_OPTS:-}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms512m -Xmx512m}"
KAFKA_JVM_PERFORMANCE_OPTS="${KAFKA_JVM_PERFORMANCE_OPTS:--XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent}"
# Root level of the broker's log (the private brokers of the tests log warnings only).
KAFKA_LOG_LEVEL=INFO
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"

POSTGRES_HOST=127.0.0.1
POSTGRES_PORT="${POSTGRES_PORT:-5432}"
REDIS_HOST=127.0.0.1
REDIS_PORT="${REDIS_PORT:-6379}"

if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  JAVA="$JAVA_HOME/bin/java"
else
  JAVA=java
fi

log()  { printf '[services] %s\n' "$*"; }
warn() { printf '[services] WARNING: %s\n' "$*" >&2; }
die()  { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# Serialise up/down/reset (e.g. several test runners calling `up` at once).
take_lock() {
  mkdir -p "$KAFKA_CACHE"
  exec 9>"$KAFKA_LOCK"
  flock -w 300 9 || die "could not get the lock $KAFKA_LOCK within 300 s"
}

# ---------------------------------------------------------------------------------------------
# Probes (no Java)
# ---------------------------------------------------------------------------------------------
# Something accepts TCP connections on host:port.
tcp_open() {
  timeout 2 bash -c ': >"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null
}

# A Kafka broker answers on host:port: send ApiVersions v0 (api_key 18, correlation id 42,
# client id "ksvc") and expect a reply whose header carries correlation id 42 and error code 0.
# A TCP connect alone is not enough: the broker binds its port before it serves requests.
kafka_answers() {
  local host="$1" port="$2" hex
  hex="$(timeout 3 bash -c '
      exec 3<>"/dev/tcp/$0/$1" || exit 1
      printf "\x00\x00\x00\x0e\x00\x12\x00\x00\x00\x00\x00\x2a\x00\x04ksvc" >&3
      head -c 10 <&3 | od -An -v -tx1
    ' "$host" "$port" 2>/dev/null)" || return 1
  hex="${hex//[[:space:]]/}"
  # bytes 0-3: response size, 4-7: correlation id, 8-9: error code
  [[ ${#hex} -eq 20 && "${hex:8:12}" == "0000002a0000" ]]
}

postgres_answers() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" -t 3
  else
    tcp_open "$POSTGRES_HOST" "$POSTGRES_PORT"
  fi
}

redis_answers() {
  if command -v redis-cli >/dev/null 2>&1; then
    [[ "$(timeout 3 redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null || true)" == PONG ]]
  else
    tcp_open "$REDIS_HOST" "$REDIS_PORT"
  fi
}

# wait_for SECONDS PROBE ARGS...
wait_for() {
  local secs="$1"; shift
  local deadline=$((SECONDS + secs))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL and Redis
# ---------------------------------------------------------------------------------------------
ensure_postgres() {
  if postgres_answers; then
    log "PostgreSQL answers on $POSTGRES_HOST:$POSTGRES_PORT"
    return
  fi
  if ! command -v pg_ctlcluster >/dev/null 2>&1 || [[ ! -d /etc/postgresql ]]; then
    die "PostgreSQL does not answer on $POSTGRES_HOST:$POSTGRES_PORT and pg_ctlcluster is not available; start it yourself (or: docker compose up -d postgres)"
  fi
  local version
  version="$(find /etc/postgresql -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort -V | tail -n 1)"
  [[ -n "$version" ]] || die "no PostgreSQL cluster under /etc/postgresql"
  log "starting PostgreSQL $version/main ..."
  pg_ctlcluster --skip-systemctl-redirect "$version" main start ||
    warn "pg_ctlcluster exited non-zero (it may already be starting); waiting for it to answer"
  wait_for 30 postgres_answers ||
    die "PostgreSQL still does not answer on $POSTGRES_HOST:$POSTGRES_PORT (see /var/log/postgresql/)"
  log "PostgreSQL answers on $POSTGRES_HOST:$POSTGRES_PORT"
}

ensure_redis() {
  if redis_answers; then
    log "Redis answers on $REDIS_HOST:$REDIS_PORT"
    return
  fi
  command -v redis-server >/dev/null 2>&1 ||
    die "Redis does not answer on $REDIS_HOST:$REDIS_PORT and redis-server is not installed; start it yourself (or: docker compose up -d redis)"
  log "starting Redis ..."
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for 15 redis_answers ||
    die "Redis still does not answer on $REDIS_HOST:$REDIS_PORT (see /var/log/redis/ci.log)"
  log "Redis answers on $REDIS_HOST:$REDIS_PORT"
}

# ---------------------------------------------------------------------------------------------
# Kafka
# ---------------------------------------------------------------------------------------------
# PID of the broker started by this script, if it is still running (guards against PID reuse).
our_kafka_pid() {
  [[ -f "$KAFKA_PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$KAFKA_PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  grep -qa 'kafka\.Kafka' "/proc/$pid/cmdline" 2>/dev/null || return 1
  echo "$pid"
}

pom_hash() { sha256sum "$KAFKA_POM" | cut -d' ' -f1; }

# Fetch the broker's runtime classpath from Maven Central, once per version of the pom.
ensure_kafka_jars() {
  if [[ -f "$KAFKA_LIBS_MARKER" && "$(cat "$KAFKA_LIBS_MARKER")" == "$(pom_hash)" ]]; then
    return
  fi
  command -v mvn >/dev/null 2>&1 || die "mvn is not installed (needed once to fetch the Kafka jars)"
  log "fetching the Kafka jars from Maven Central (once) ..."
  local tmp="$KAFKA_CACHE/libs.tmp"
  rm -rf "$tmp"
  if ! mvn -B -q -Dstyle.color=never -f "$KAFKA_POM" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$tmp" >"$KAFKA_CACHE/mvn.log" 2>&1; then
    cat "$KAFKA_CACHE/mvn.log" >&2
    die "mvn could not fetch the Kafka jars (output above, also in $KAFKA_CACHE/mvn.log)"
  fi
  ls "$tmp"/kafka_2.13-*.jar >/dev/null 2>&1 || die "kafka_2.13 jar missing from $tmp"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
  pom_hash >"$KAFKA_LIBS_MARKER"
  log "Kafka jars in $KAFKA_LIBS ($(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars)"
}

# Short-lived Kafka command-line tools: small heap, fast JIT, only warnings (to stderr).
kafka_tool() {
  "$JAVA" -Xmx128m -XX:TieredStopAtLevel=1 -Dlog4j.configuration="file:$KAFKA_TOOLS_LOG4J" \
    -cp "$KAFKA_LIBS/*" "$@"
}

write_log4j_configs() {
  mkdir -p "$KAFKA_CACHE"
  cat >"$KAFKA_LOG4J" <<EOF
# reload4j configuration for the broker: everything to stdout (-> its log file).
log4j.rootLogger=$KAFKA_LOG_LEVEL, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.authorizer.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.server.KafkaServer=INFO
log4j.logger.kafka.server.BrokerServer=INFO
EOF
  cat >"$KAFKA_TOOLS_LOG4J" <<'EOF'
# reload4j configuration for the Kafka command-line tools run by scripts/services.sh.
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

write_kafka_config() {
  mkdir -p "$KAFKA_DATA_DIR"
  cat >"$KAFKA_PROPS" <<EOF
# Generated by scripts/services.sh on every \`up\`; edit the script, not this file.
# Single-node KRaft: this one process is both the broker and the (only) controller.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT

# Topic data and the KRaft metadata log.
log.dirs=$KAFKA_DATA_DIR

# One broker: internal topics must not ask for more replicas than exist, otherwise
# consumer groups loop on "group coordinator not available" and transactions never start.
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
default.replication.factor=1
min.insync.replicas=1

# Consumers join at once instead of waiting 3 s for more members (tests start and stop groups).
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
num.partitions=3
# Faster first consumer group (the default creates 50 partitions for the offsets topic).
offsets.topic.num.partitions=3

# Infinite retention: the domain event stream is the source of truth and is replayed from the
# beginning to rebuild projections, so Kafka must never delete old segments by age or size.
# (-1 = no time limit; log.retention.ms would take precedence over hours, so set it too.)
log.retention.hours=-1
log.retention.ms=-1
log.retention.bytes=-1
EOF
}

# Format the storage once (KRaft needs a cluster id written into meta.properties).
ensure_kafka_storage() {
  if [[ -f "$KAFKA_DATA_DIR/meta.properties" ]]; then
    return
  fi
  local cluster_id
  if [[ -s "$KAFKA_CLUSTER_ID_FILE" ]]; then
    cluster_id="$(cat "$KAFKA_CLUSTER_ID_FILE")"
  else
    # As Kafka's `Uuid.randomUuid()`: 16 random bytes in URL-safe base64, not starting with '-'
    # (it would be read as an option).
    cluster_id=-
    while [[ "$cluster_id" == -* ]]; do
      cluster_id="$(head -c 16 /dev/urandom | base64 | tr '/+' '_-' | tr -d '=\n')"
    done
    [[ "$cluster_id" =~ ^[A-Za-z0-9_-]{22}$ ]] || die "could not make a cluster id ('$cluster_id')"
    echo "$cluster_id" >"$KAFKA_CLUSTER_ID_FILE"
  fi
  log "formatting Kafka storage in $KAFKA_DATA_DIR (cluster id $cluster_id) ..."
  kafka_tool kafka.tools.StorageTool format -t "$cluster_id" -c "$KAFKA_PROPS" >/dev/null ||
    die "kafka.tools.StorageTool format failed"
}

print_log_tail() {
  if [[ -f "$KAFKA_LOG" ]]; then
    echo "----- last 40 lines of $KAFKA_LOG -----" >&2
    tail -n 40 "$KAFKA_LOG" >&2
    echo "---------------------------------------" >&2
  fi
}

# Full client round trip: bootstrap metadata request, then ApiVersions to every broker it lists.
kafka_metadata_roundtrip() {
  local cfg="$KAFKA_CACHE/probe-client.properties" out
  printf 'request.timeout.ms=5000\ndefault.api.timeout.ms=10000\n' >"$cfg"
  out="$(timeout 30 "$JAVA" -Xmx128m -XX:TieredStopAtLevel=1 \
    -Dlog4j.configuration="file:$KAFKA_TOOLS_LOG4J" -cp "$KAFKA_LIBS/*" \
    kafka.admin.BrokerApiVersionsCommand --bootstrap-server "$KAFKA_HOST:$KAFKA_PORT" \
    --command-config "$cfg" 2>&1)" || return 1
  [[ "$out" == *"(id: 1 rack"* ]]
}

# The broker's command line (in KAFKA_JAVA_COMMAND), from the settings above.
kafka_java_command() {
  # shellcheck disable=SC2206 # the *_OPTS are lists of flags
  KAFKA_JAVA_COMMAND=("$JAVA" $KAFKA_HEAP_OPTS -server $KAFKA_JVM_PERFORMANCE_OPTS
    -Djava.awt.headless=true -Dlog4j.configuration="file:$KAFKA_LOG4J"
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_PROPS")
}

# `broker`: a private broker in the foreground, its files in the work dir (see usage).
kafka_foreground() {
  local work_dir=""
  while (($#)); do
    case "$1" in
      --port) KAFKA_PORT="$2"; shift 2 ;;
      --controller-port) KAFKA_CONTROLLER_PORT="$2"; shift 2 ;;
      --data-dir) KAFKA_DATA_DIR="$(realpath -m -- "$2")"; shift 2 ;;
      --work-dir) work_dir="$(realpath -m -- "$2")"; shift 2 ;;
      *) die "broker: unknown option $1" ;;
    esac
  done
  [[ -n "$work_dir" ]] || die "broker: --work-dir is required"
  mkdir -p "$work_dir"
  KAFKA_PROPS="$work_dir/server.properties"
  KAFKA_LOG4J="$work_dir/log4j.properties"
  KAFKA_TOOLS_LOG4J="$work_dir/tools-log4j.properties"
  KAFKA_CLUSTER_ID_FILE="$work_dir/cluster.id"
  KAFKA_LOG_LEVEL=WARN
  [[ -n "${KAFKA_HEAP_OPTS_SET:-}" ]] || KAFKA_HEAP_OPTS="-Xms256m -Xmx512m"
  [[ -n "${KAFKA_JVM_PERFORMANCE_OPTS_SET:-}" ]] || KAFKA_JVM_PERFORMANCE_OPTS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1"
  # The jars are shared with `up`: fetch them under the lock, then let it go (the JVM must not hold it).
  take_lock
  ensure_kafka_jars
  exec 9>&-
  write_log4j_configs
  write_kafka_config
  ensure_kafka_storage
  kafka_java_command
  exec "${KAFKA_JAVA_COMMAND[@]}" </dev/null
}

kafka_up() {
  if kafka_answers "$KAFKA_HOST" "$KAFKA_PORT"; then
    local pid
    if pid="$(our_kafka_pid)"; then
      log "Kafka already answers on $KAFKA_HOST:$KAFKA_PORT (pid $pid)"
    else
      log "Kafka already answers on $KAFKA_HOST:$KAFKA_PORT (not started by this script; left alone)"
    fi
    # Left alone: nothing to fetch. (A test that starts a private broker fetches the jars then,
    # through `broker`.)
    return
  fi

  local start=$SECONDS pid=""
  write_log4j_configs
  if pid="$(our_kafka_pid)"; then
    log "Kafka (pid $pid) is running but not answering yet; waiting for it ..."
  else
    rm -f "$KAFKA_PID_FILE"
    if tcp_open "$KAFKA_HOST" "$KAFKA_PORT" || tcp_open "$KAFKA_HOST" "$KAFKA_CONTROLLER_PORT"; then
      # Maybe another broker that is still starting: give it a moment before giving up.
      wait_for 15 kafka_answers "$KAFKA_HOST" "$KAFKA_PORT" && {
        log "Kafka answers on $KAFKA_HOST:$KAFKA_PORT (not started by this script; left alone)"
        return
      }
      die "port $KAFKA_PORT or $KAFKA_CONTROLLER_PORT on $KAFKA_HOST is taken by something that does not answer as Kafka; free it or set KAFKA_PORT / KAFKA_CONTROLLER_PORT"
    fi

    ensure_kafka_jars
    write_kafka_config
    ensure_kafka_storage
    kafka_java_command

    [[ -f "$KAFKA_LOG" ]] && mv -f "$KAFKA_LOG" "$KAFKA_LOG.prev"
    log "starting Kafka on $KAFKA_HOST:$KAFKA_PORT (data: $KAFKA_DATA_DIR, log: $KAFKA_LOG) ..."
    # setsid + nohup: the broker outlives this shell and is not hit by a Ctrl-C sent to its
    # process group. The inner shell writes its own PID and execs java, so the PID file holds
    # the JVM's PID. `9>&-`: the broker must not inherit (and so hold forever) the lock fd.
    # shellcheck disable=SC2086 # KAFKA_HEAP_OPTS is a list of flags
    KAFKA_PID_FILE="$KAFKA_PID_FILE" nohup setsid bash -c 'echo $$ >"$KAFKA_PID_FILE"; exec "$@"' kafka \
      "${KAFKA_JAVA_COMMAND[@]}" </dev/null >>"$KAFKA_LOG" 2>&1 9>&- &
    local launcher=$!
    wait_for 5 test -s "$KAFKA_PID_FILE" || true
    pid="$(cat "$KAFKA_PID_FILE" 2>/dev/null || echo "$launcher")"
  fi

  local deadline=$((start + KAFKA_START_TIMEOUT))
  until kafka_answers "$KAFKA_HOST" "$KAFKA_PORT"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      print_log_tail
      rm -f "$KAFKA_PID_FILE"
      die "Kafka exited during startup"
    fi
    if ((SECONDS >= deadline)); then
      print_log_tail
      die "Kafka did not answer on $KAFKA_HOST:$KAFKA_PORT within ${KAFKA_START_TIMEOUT}s (pid $pid left running; 'scripts/services.sh down' stops it)"
    fi
    sleep 0.5
  done
  until kafka_metadata_roundtrip; do
    if ((SECONDS >= deadline)) || ! kill -0 "$pid" 2>/dev/null; then
      print_log_tail
      die "Kafka answers ApiVersions but the metadata round trip (kafka.admin.BrokerApiVersionsCommand) fails"
    fi
    sleep 1
  done
  log "Kafka answers on $KAFKA_HOST:$KAFKA_PORT (pid $pid, ready in $((SECONDS - start))s)"
}

kafka_down() {
  local pid
  if ! pid="$(our_kafka_pid)"; then
    rm -f "$KAFKA_PID_FILE"
    if kafka_answers "$KAFKA_HOST" "$KAFKA_PORT"; then
      log "Kafka on $KAFKA_HOST:$KAFKA_PORT was not started by this script; left alone"
    else
      log "Kafka is not running"
    fi
    return
  fi
  log "stopping Kafka (pid $pid) ..."
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + KAFKA_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    warn "Kafka did not stop within ${KAFKA_STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait_for 10 bash -c '! kill -0 "$0" 2>/dev/null' "$pid" || die "pid $pid survived SIGKILL"
  fi
  rm -f "$KAFKA_PID_FILE"
  log "Kafka stopped"
}

kafka_reset() {
  kafka_down
  if kafka_answers "$KAFKA_HOST" "$KAFKA_PORT"; then
    die "a Kafka not started by this script still answers on $KAFKA_HOST:$KAFKA_PORT; not deleting $KAFKA_DATA_DIR under it"
  fi
  # Guard against a mistyped KAFKA_DATA_DIR: only delete what looks like a Kafka log dir.
  if [[ -d "$KAFKA_DATA_DIR" && ! -f "$KAFKA_DATA_DIR/meta.properties" &&
    -n "$(ls -A "$KAFKA_DATA_DIR")" ]]; then
    die "$KAFKA_DATA_DIR is not empty and has no meta.properties; not deleting it"
  fi
  log "deleting Kafka data in $KAFKA_DATA_DIR"
  rm -rf -- "$KAFKA_DATA_DIR"
}

# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------
cmd_status() {
  local all=0 pid
  if postgres_answers; then
    printf '%-10s %-16s %s\n' postgres "$POSTGRES_HOST:$POSTGRES_PORT" "answers"
  else
    printf '%-10s %-16s %s\n' postgres "$POSTGRES_HOST:$POSTGRES_PORT" "DOWN"; all=1
  fi
  if redis_answers; then
    printf '%-10s %-16s %s\n' redis "$REDIS_HOST:$REDIS_PORT" "answers"
  else
    printf '%-10s %-16s %s\n' redis "$REDIS_HOST:$REDIS_PORT" "DOWN"; all=1
  fi
  if kafka_answers "$KAFKA_HOST" "$KAFKA_PORT"; then
    if pid="$(our_kafka_pid)"; then
      printf '%-10s %-16s %s\n' kafka "$KAFKA_HOST:$KAFKA_PORT" "answers (pid $pid, data $KAFKA_DATA_DIR)"
    else
      printf '%-10s %-16s %s\n' kafka "$KAFKA_HOST:$KAFKA_PORT" "answers (not started by this script)"
    fi
  elif pid="$(our_kafka_pid)"; then
    printf '%-10s %-16s %s\n' kafka "$KAFKA_HOST:$KAFKA_PORT" "STARTING (pid $pid, not answering yet)"; all=1
  elif tcp_open "$KAFKA_HOST" "$KAFKA_PORT"; then
    printf '%-10s %-16s %s\n' kafka "$KAFKA_HOST:$KAFKA_PORT" "DOWN (port open, but no Kafka reply)"; all=1
  else
    printf '%-10s %-16s %s\n' kafka "$KAFKA_HOST:$KAFKA_PORT" "DOWN"; all=1
  fi
  return "$all"
}

main() {
  local cmd="${1:-help}"
  case "$cmd" in
    up)
      take_lock
      ensure_postgres
      ensure_redis
      kafka_up
      ;;
    down)
      take_lock
      kafka_down
      ;;
    reset)
      take_lock
      kafka_reset
      ;;
    broker)
      shift
      kafka_foreground "$@"
      ;;
    status)
      cmd_status
      ;;
    help | -h | --help)
      usage
      ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
}

main "$@"
