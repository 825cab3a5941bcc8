"""Deterministic logs in the formats the shared corpus lacks, for the survival benchmark.

The corpus has Apache, HDFS, Hadoop, OpenSSH, Spark and Zookeeper logs; a compressor that is
tuned on those alone can miss the levels of other formats (logcat's one-letter ``W``/``E``,
Windows CBS's ``Error``, Proxifier's lowercase ``error :``, ...). Each generator here writes
about 2,000 lines the way the format's own program would: mostly routine lines drawn from a
few dozen templates (skewed, as real logs repeat a few messages most), a handful of distinct
warning and error templates (one warning repeated 16 times, one rare warning seen once),
errors spread over the log, and the last error at 86-93% of the log, never at its very end.
Java and Python errors are followed by their stack trace or traceback.

Every log is a pure function of its format: a `random.Random` seeded with the format's name
draws every choice, so two runs (and two machines) get the same bytes. The lines are written
for this benchmark from the formats' published shapes; none is taken from a real log.
"""

from __future__ import annotations

import re
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from random import Random

LINES = 2000

# How often each warning template occurs, in order: the first is the one repeated, the last
# the rare one. Errors likewise, but for the last error template: the log's last error, once.
WARNING_COUNTS = (16, 5, 3, 1)
ERROR_COUNTS = (6, 3, 2)
LAST_ERROR_SPAN = (0.86, 0.93)

ROUTINE, WARNING, ERROR = "routine", "warning", "error"


@dataclass(frozen=True)
class Template:
    """One kind of line: its level as the format writes it, who writes it, and its message
    (``{name}`` fields are filled with fresh values each time; see `_FIELDS`)."""

    level: str
    component: str
    message: str
    trace: tuple[str, ...] = ()


@dataclass(frozen=True)
class Record:
    """A line to write: its template, its filled message and its place in time."""

    template: Template
    message: str
    when: datetime
    seq: int


Render = Callable[[Record], str]


@dataclass(frozen=True)
class LogFormat:
    """A log format: its templates and how one of its lines is written."""

    name: str
    file_name: str
    start: datetime
    render: Render
    routine: tuple[Template, ...]
    warnings: tuple[Template, ...]
    errors: tuple[Template, ...]


@dataclass(frozen=True)
class GeneratedLog:
    name: str
    format: str
    text: str


def _hex(bits: int) -> Callable[[Random], str]:
    return lambda rng: f"{rng.getrandbits(bits):0{bits // 4}x}"


_HOSTS = (
    "www.google.com",
    "mail.example.org",
    "cdn.jsdelivr.net",
    "api.github.com",
    "update.microsoft.com",
    "static.xx.fbcdn.net",
    "news.ycombinator.com",
    "docs.python.org",
)
_FIELDS: dict[str, Callable[[Random], str]] = {
    "n": lambda rng: str(rng.randint(1, 999)),
    "n2": lambda rng: f"{rng.randint(0, 59):02d}",
    "small": lambda rng: str(rng.randint(1, 9)),
    "pct": lambda rng: str(rng.randint(50, 99)),
    "temp": lambda rng: str(rng.randint(35, 79)),
    "big": lambda rng: str(rng.randint(100_000, 99_999_999)),
    "ms": lambda rng: str(rng.randint(1, 4_000)),
    "f": lambda rng: f"{rng.uniform(0.01, 9.99):.3f}",
    "ip": lambda rng: f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
    "port": lambda rng: str(rng.randint(1024, 65535)),
    "pid": lambda rng: str(rng.randint(300, 32_000)),
    "hex2": _hex(8),
    "seq8": lambda rng: f"{rng.randint(1, 0xFFFF):08x}",
    "hex": _hex(32),
    "hex16": _hex(64),
    "hex40": _hex(160),
    "uuid": lambda rng: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
    "host": lambda rng: rng.choice(_HOSTS),
}
_FIELD = re.compile(r"\{(\w+)\}")


def fill(text: str, rng: Random) -> str:
    return _FIELD.sub(lambda match: _FIELDS[match.group(1)](rng), text)


def stable(text: str, low: int, high: int) -> int:
    """A number in [low, high) fixed by `text` (a component's pid stays the same)."""
    return low + zlib.crc32(text.encode()) % (high - low)


# --- Android logcat, ``adb logcat -v threadtime`` ------------------------------------------


def _logcat(record: Record) -> str:
    tag = record.template.component
    pid = stable(tag, 600, 28_000)
    tid = pid + stable(tag + "/thread", 0, 40)
    stamp = f"{record.when:%m-%d %H:%M:%S}.{record.when.microsecond // 1000:03d}"
    return f"{stamp} {pid:>5} {tid:>5} {record.template.level} {tag}: {record.message}"


LOGCAT = LogFormat(
    name="android-logcat",
    file_name="Android_logcat_2k.log",
    start=datetime(2024, 3, 17, 16, 13, 38, tzinfo=UTC),
    render=_logcat,
    routine=(
        Template("D", "PowerManagerService", "acquireWakeLock flags=0x1 tag=*job*/sync uid={big}"),
        Template("D", "PowerManagerService", "releaseWakeLock flags=0x0 tag=*job*/sync"),
        Template("I", "ActivityManager", "Start proc {pid}:com.android.vending/u0a{n} for service"),
        Template("I", "ActivityManager", "Displayed com.example.notes/.MainActivity: +{ms}ms"),
        Template("D", "WindowManager", "Input focus moved to window {hex} u0 com.example.notes"),
        Template("I", "chatty", "uid=1000(system) Binder:{pid}_{n} identical {n} lines"),
        Template("V", "AudioFlinger", "track {hex} started, session {n}"),
        Template("D", "ConnectivityService", "NetworkAgentInfo [WIFI () - {n}] validation passed"),
        Template("I", "wpa_supplicant", "wlan0: CTRL-EVENT-SIGNAL-CHANGE above=1 signal=-{n}"),
        Template("D", "BluetoothAdapter", "getState() returned STATE_ON for uid {big}"),
        Template("I", "SurfaceFlinger", "Frame {big} presented, latency {ms} us"),
        Template("D", "NotificationService", "enqueueNotificationInternal: id={n} pkg=com.mail"),
        Template("I", "JobScheduler", "Job {n} for com.google.android.gms scheduled in {ms} ms"),
        Template("D", "LocationManagerService", "request {hex} gps interval={ms} from maps"),
        Template("V", "InputDispatcher", "Delivering key event to {hex}, action=0 keycode={n}"),
        Template("I", "art", "Background concurrent GC freed {big}({n}MB) objects, paused {ms}us"),
        Template("D", "KeyguardUpdateMonitor", "handleBatteryUpdate level={n} plugged=2"),
        Template("I", "BatteryService", "battery level {pct}%, temperature {temp}0, voltage {big}"),
        Template("D", "DisplayPowerController", "Animating brightness: target={n}, rate={n}"),
        Template("V", "SettingsProvider", "getSetting name=screen_brightness user={n}"),
        Template("D", "TelephonyManager", "getNetworkType returned 13 for sub {n}"),
        Template("I", "PackageManager", "Package com.example.notes updated, version {big}"),
        Template("I", "MediaCodec", "Codec c2.android.avc.decoder configured, {n}x{n}"),
        Template("D", "MediaCodec", "queueInputBuffer index={n} size={big} pts={big}"),
    ),
    warnings=(
        Template("W", "ActivityManager", "Slow operation: {ms}ms so far, now at startProcess"),
        Template("W", "BroadcastQueue", "Background execution not allowed: CONNECTIVITY_CHANGE"),
        Template("W", "System.err", "java.net.SocketTimeoutException: timeout after {ms}ms"),
        Template("W", "ResourceType", "No package identifier when getting value 0x{hex}"),
    ),
    errors=(
        Template("E", "SQLiteLog", '(5) database is locked in "INSERT INTO notes" conn {n}'),
        Template("E", "ActivityManager", "ANR in com.example.notes, pid {pid}, reason: input"),
        Template("F", "libc", "Fatal signal 11 (SIGSEGV), code 1, fault addr 0x{hex} in tid {pid}"),
        Template("E", "MediaCodec", "Codec reported err 0x{hex2}, actionCode {n}, in state 6"),
    ),
)


# --- HPC cluster event log (node, component, state, epoch, flag, message) ------------------


def _hpc(record: Record) -> str:
    component, state = record.template.component.split(" ")
    node = f"node-{stable(f'{record.message}/{record.seq}', 1, 256)}"
    epoch = int(record.when.timestamp())
    flag = 1 if record.template.level == ROUTINE else 0
    return f"{record.seq} {node} {component} {state} {epoch} {flag} {record.message}"


HPC = LogFormat(
    name="hpc",
    file_name="HPC_2k.log",
    start=datetime(2006, 4, 21, 8, 0, 0, tzinfo=UTC),
    render=_hpc,
    routine=(
        Template(ROUTINE, "node status", "running"),
        Template(ROUTINE, "node status", "configured out"),
        Template(ROUTINE, "node status", "configured in"),
        Template(ROUTINE, "node boot", "boot (command {n})"),
        Template(ROUTINE, "node action", "clusterAddMember (command {n})"),
        Template(ROUTINE, "node action", "halt (command {n})"),
        Template(ROUTINE, "node power", "power on (command {n})"),
        Template(ROUTINE, "node temperature", "ambient={temp}"),
        Template(ROUTINE, "node fan", "Fan speeds ( {big} {big} {big} {big} )"),
        Template(ROUTINE, "node psu", "PSU status ( on on )"),
        Template(
            ROUTINE,
            "unix.hw state_change.unavailable",
            'Component State Change: Component "alt0" is in the unavailable state (HWID={n})',
        ),
        Template(
            ROUTINE,
            "unix.hw state_change.available",
            'Component State Change: Component "SCSI-{hex}" is in the available state',
        ),
        Template(ROUTINE, "scheduler job", "job {big} started on {n} nodes"),
        Template(ROUTINE, "scheduler job", "job {big} completed, elapsed {n}s"),
        Template(ROUTINE, "nfs mount", "mount of /scratch{small} from fs{small} succeeded"),
        Template(ROUTINE, "gm_interconnect link", "link {n} up, 2 Gbps"),
        Template(ROUTINE, "gm_interconnect route", "route table updated, {n} entries"),
    ),
    warnings=(
        Template(WARNING, "node temperature", "warning : ambient={temp} above threshold 40"),
        Template(WARNING, "nfs mount", "warning : /scratch{small} nearly full, {pct}% used"),
        Template(
            WARNING,
            "unix.hw state_change.unavailable",
            'warning : Component "alt0" unavailable for {n} minutes (HWID={n})',
        ),
        Template(WARNING, "node fan", "warning : fan {n} below minimum speed ( {big} RPM )"),
    ),
    errors=(
        Template(ERROR, "node boot", "error : boot (command {n}) failed, node not responding"),
        Template(ERROR, "scheduler job", "error : job {big} aborted, exit status {n}"),
        Template(ERROR, "nfs mount", "error : server fs{small} not responding, still trying"),
        Template(ERROR, "gm_interconnect link", "error : link {n} down on switch Myrinet-{n}"),
    ),
)


# --- Proxifier (Windows proxy client) ------------------------------------------------------


def _proxifier(record: Record) -> str:
    return f"[{record.when:%m.%d %H:%M:%S}] {record.template.component} - {record.message}"


_PROXY = "proxy.campus.example.edu:5070"
PROXIFIER = LogFormat(
    name="proxifier",
    file_name="Proxifier_2k.log",
    start=datetime(2023, 10, 30, 16, 49, 6, tzinfo=UTC),
    render=_proxifier,
    routine=(
        Template(ROUTINE, "chrome.exe", "{host}:443 open through proxy " + _PROXY + " HTTPS"),
        Template(
            ROUTINE,
            "chrome.exe",
            "{host}:443 close, {n} bytes sent, {big} bytes received, lifetime 00:{n2}",
        ),
        Template(ROUTINE, "chrome.exe", _PROXY + " open through proxy " + _PROXY + " HTTPS"),
        Template(ROUTINE, "Dropbox.exe", "client.dropbox.com:443 open through proxy " + _PROXY),
        Template(
            ROUTINE,
            "Dropbox.exe",
            "client.dropbox.com:443 close, {n} bytes ({n} KB) sent, {big} bytes received",
        ),
        Template(ROUTINE, "svchost.exe", "{host}:80 open through proxy " + _PROXY + " HTTP"),
        Template(ROUTINE, "svchost.exe", "{host}:80 close, {n} bytes sent, {n} bytes received"),
        Template(ROUTINE, "OUTLOOK.EXE", "outlook.office365.com:443 open through proxy " + _PROXY),
        Template(ROUTINE, "OUTLOOK.EXE", "outlook.office365.com:443 close, {big} bytes received"),
        Template(ROUTINE, "Skype.exe", "{ip}:{port} open through proxy " + _PROXY + " SOCKS5"),
        Template(ROUTINE, "Skype.exe", "{ip}:{port} close, {n} bytes sent, lifetime <1 sec"),
        Template(ROUTINE, "git.exe", "github.com:443 open directly"),
        Template(
            ROUTINE, "git.exe", "github.com:443 close, {big} bytes received, lifetime 00:{n2}"
        ),
        Template(ROUTINE, "Teams.exe", "teams.microsoft.com:443 open through proxy " + _PROXY),
    ),
    warnings=(
        Template(WARNING, "chrome.exe", "{host}:443 warning : slow proxy response ({ms} ms)"),
        Template(WARNING, "Dropbox.exe", "client.dropbox.com:443 warning : connection reused"),
        Template(WARNING, "svchost.exe", "{ip}:80 warning : proxy closed the connection early"),
        Template(WARNING, "Proxifier", "warning : DNS lookup of {ip} took {ms} ms"),
    ),
    errors=(
        Template(
            ERROR,
            "chrome.exe",
            "www.example.com:443 error : Could not connect through proxy "
            + _PROXY
            + " - Proxy server cannot establish a connection with the target, status code 403",
        ),
        Template(
            ERROR,
            "Dropbox.exe",
            "client.dropbox.com:443 error : Could not connect to proxy "
            + _PROXY
            + " - connection attempt failed with error 10060",
        ),
        Template(ERROR, "git.exe", "github.com:443 error : Connection closed unexpectedly"),
        Template(
            ERROR,
            "Skype.exe",
            "{ip}:{port} error : A connection request was canceled before the completion.",
        ),
    ),
)


# --- OpenStack nova (file name, time, pid, level, logger, request context) -----------------


def _nova(record: Record) -> str:
    component = record.template.component
    service = "nova-api" if "wsgi" in component or "api" in component else "nova-compute"
    pid = stable(service, 2000, 30_000)
    stamp = f"{record.when:%Y-%m-%d %H:%M:%S}.{record.when.microsecond // 1000:03d}"
    context = f"[req-{fill('{uuid}', Random(record.seq))} - - - - -]"
    return (
        f"{service}.log.1.2017-05-16_13:53:08 {stamp} {pid} {record.template.level} "
        f"{component} {context} {record.message}"
    )


_WSGI = "nova.osapi_compute.wsgi.server"
_MANAGER = "nova.compute.manager"
_TRACKER = "nova.compute.resource_tracker"
_LIBVIRT = "nova.virt.libvirt.driver"
NOVA = LogFormat(
    name="openstack-nova",
    file_name="OpenStack_nova_2k.log",
    start=datetime(2017, 5, 16, 0, 0, 0, tzinfo=UTC),
    render=_nova,
    routine=(
        Template(
            "INFO",
            _WSGI,
            '{ip} "GET /v2/{hex}/servers/detail HTTP/1.1" status: 200 len: {n} time: {f}',
        ),
        Template("INFO", _WSGI, '{ip} "POST /v2/{hex}/servers HTTP/1.1" status: 202 len: {n}'),
        Template("INFO", _WSGI, '{ip} "DELETE /v2/{hex}/servers/{uuid} HTTP/1.1" status: 204'),
        Template("INFO", _MANAGER, "[instance: {uuid}] VM Started (Lifecycle Event)"),
        Template("INFO", _MANAGER, "[instance: {uuid}] VM Paused (Lifecycle Event)"),
        Template("INFO", _MANAGER, "[instance: {uuid}] VM Resumed (Lifecycle Event)"),
        Template("INFO", _MANAGER, "[instance: {uuid}] VM Stopped (Lifecycle Event)"),
        Template("INFO", _MANAGER, "[instance: {uuid}] Took {f} seconds to build instance."),
        Template("INFO", _MANAGER, "[instance: {uuid}] Terminating instance"),
        Template(
            "INFO",
            _TRACKER,
            "Final resource view: name=cp-{n}.cloud phys_ram={big}MB used_ram={n}MB "
            "phys_disk={n}GB used_disk={n}GB total_vcpus=16 used_vcpus={n} pci_stats=[]",
        ),
        Template("INFO", _TRACKER, "Compute_service record updated for cp-{n}.cloud"),
        Template("INFO", "nova.compute.claims", "[instance: {uuid}] Attempting claim: 2048 MB"),
        Template("INFO", "nova.compute.claims", "[instance: {uuid}] Claim successful"),
        Template("INFO", _LIBVIRT, "[instance: {uuid}] Creating image"),
        Template("INFO", _LIBVIRT, "[instance: {uuid}] Instance spawned successfully."),
        Template("INFO", _LIBVIRT, "[instance: {uuid}] Deleting instance files"),
        Template("INFO", "nova.scheduler.host_manager", "Successfully synced instances from host"),
        Template(
            "INFO",
            "nova.metadata.wsgi.server",
            '{ip} "GET /openstack/2013-10-17/meta_data.json HTTP/1.1" status: 200 time: {f}',
        ),
        Template("DEBUG", "oslo_concurrency.lockutils", 'Lock "compute_resources" acquired'),
        Template("DEBUG", "oslo_concurrency.lockutils", 'Lock "compute_resources" released'),
    ),
    warnings=(
        Template(
            "WARNING",
            _MANAGER,
            "[instance: {uuid}] Received unexpected event network-vif-unplugged-{uuid} "
            "for instance with vm_state active and task_state None.",
        ),
        Template("WARNING", "nova.virt.libvirt.imagecache", "Unknown base file: /_base/{hex40}"),
        Template("WARNING", _TRACKER, "Host cp-{n} has more disk than expected ({n}GB > {n}GB)"),
        Template("WARNING", "nova.scheduler.utils", "Setting instance {uuid} to ERROR state."),
    ),
    errors=(
        Template("ERROR", _MANAGER, "[instance: {uuid}] Instance failed to spawn"),
        Template("ERROR", "nova.api.openstack.extensions", "Unexpected exception in API method"),
        Template("ERROR", _MANAGER, "[instance: {uuid}] Failed to allocate network(s)"),
        Template("ERROR", _LIBVIRT, "[instance: {uuid}] Failed to start libvirt guest"),
    ),
)


# --- Windows CBS (Component Based Servicing) -----------------------------------------------


def _cbs(record: Record) -> str:
    template = record.template
    return f"{record.when:%Y-%m-%d %H:%M:%S}, {template.level:<22}{template.component:<7}" + (
        record.message
    )


_KB = "Package_for_KB{big}~31bf3856ad364e35~amd64~~6.1.1.{n}"
CBS = LogFormat(
    name="windows-cbs",
    file_name="Windows_CBS_2k.log",
    start=datetime(2016, 9, 28, 4, 30, 30, tzinfo=UTC),
    render=_cbs,
    routine=(
        Template("Info", "CBS", "Loaded Servicing Stack v6.1.7601.{n} with Core: cbscore.dll"),
        Template("Info", "CBS", "Session: {big}_{big} initialized by client WindowsUpdateAgent."),
        Template(
            "Info",
            "CBS",
            "Read out cached package applicability for package: "
            + _KB
            + ", ApplicableState: 112, CurrentState:112",
        ),
        Template("Info", "CBS", "SQM: Initializing online with Windows opt-in: False"),
        Template("Info", "CBS", "SQM: Cleaning up report files older than 10 days."),
        Template("Info", "CBS", "Starting TrustedInstaller initialization."),
        Template("Info", "CBS", "Ending TrustedInstaller initialization."),
        Template("Info", "CBS", "Starting the TrustedInstaller main loop."),
        Template("Info", "CBS", "TrustedInstaller service starts successfully."),
        Template(
            "Info", "CBS", "NonStart: Checking to ensure startup processing was not required."
        ),
        Template("Info", "CBS", "Startup processing thread terminated normally"),
        # CBS writes this one at Info: the word in the text is not the line's level.
        Template("Info", "CBS", "Warning: Unrecognized packageExtended attribute."),
        Template("Info", "CBS", "Exec: Processing complete.  Session: {big}_{big}"),
        Template("Info", "CSI", "{seq8}@2016/9/28:04:{n2}:{n2}.{n} WcpInitialize called"),
        Template("Info", "CSI", "{seq8} CSI Store {big} (0x{hex16}) initialized"),
        Template("Info", "CSI", "{seq8} Performing 1 operations; 1 are not lock/unlock"),
        Template("Info", "CSI", "{seq8} Creating NT transaction (seq {n}), objectname [6]"),
    ),
    warnings=(
        Template("Warning", "CSI", "{seq8} [SR] Cannot verify member file [l:{n}]wcp{n}.dll"),
        Template("Warning", "CBS", "Unable to load the package manifest, hr: 0x{hex2}"),
        Template(
            "Warning",
            "CBS",
            "Exec: Not able to query DisableWerReporting flag. [HRESULT = 0x{hex2}]",
        ),
        Template("Warning", "CBS", "Reboot mark refs: {n}, pending operations by TrustedInstaller"),
    ),
    errors=(
        Template(
            "Error",
            "CBS",
            "Failed to process single phase execution. [HRESULT = 0x800f0902 - "
            "CBS_E_SOURCE_MISSING]",
        ),
        Template("Error", "CSI", "{seq8} (F) STATUS_SXS_ASSEMBLY_MISSING #{n}# from PinDeployment"),
        Template(
            "Error",
            "CBS",
            "Failed to get session package state [HRESULT = 0x800f0805 - CBS_E_INVALID_PACKAGE]",
        ),
        Template(
            "Error",
            "CBS",
            "Exec: Failed to commit transaction for package "
            + _KB
            + " [HRESULT = 0x80073712 - ERROR_SXS_COMPONENT_STORE_CORRUPT]",
        ),
    ),
)


# --- Blue Gene/L RAS log -------------------------------------------------------------------


def _bgl(record: Record) -> str:
    template = record.template
    alert = "-" if template.level in ("INFO", "WARNING") else _ALERTS[template.component]
    rack = stable(record.message, 0, 64)
    location = f"R{rack // 16:02d}-M{rack % 2}-N{rack % 16:X}-C:J{rack % 18:02d}-U11"
    day = f"{record.when:%Y.%m.%d}"
    stamp = f"{record.when:%Y-%m-%d-%H.%M.%S}.{record.when.microsecond:06d}"
    return (
        f"{alert} {int(record.when.timestamp())} {day} {location} {stamp} {location} RAS "
        f"{template.component} {template.level} {record.message}"
    )


_ALERTS = {"KERNEL": "KERNDTLB", "APP": "APPREAD", "MMCS": "MMCS", "MONITOR": "MONILL"}
BGL = LogFormat(
    name="bgl",
    file_name="BGL_2k.log",
    start=datetime(2005, 6, 3, 15, 42, 50, tzinfo=UTC),
    render=_bgl,
    routine=(
        # Corrected faults are INFO: "error" in the text is not the line's level.
        Template("INFO", "KERNEL", "instruction cache parity error corrected"),
        Template("INFO", "KERNEL", "total of {n} ddr error(s) detected and corrected"),
        Template("INFO", "KERNEL", "generating core.{n}"),
        Template("INFO", "KERNEL", "{n} double-hummer alignment exceptions"),
        Template("INFO", "KERNEL", "CE sym {n}, at 0x{hex2}, mask 0x{n}"),
        Template("INFO", "KERNEL", "program interrupt: fp cr field .............{n}"),
        Template("INFO", "KERNEL", "tree receiver {n} in re-synch state event(s)"),
        Template("INFO", "APP", "ciod: generated {n} core files for program /bgl/apps/a{n}.rts"),
        Template("INFO", "APP", "ciod: LOGIN chdir(/p/gb1/run{n}) succeeded"),
        Template("INFO", "MMCS", "idoproxy communication with node card R0{small}-M0 started"),
        Template("INFO", "MMCS", "block RMP{big} booted in {n} seconds"),
        Template("INFO", "DISCOVERY", "Node card VPD check: node in processor card slot J{n} ok"),
        Template("INFO", "DISCOVERY", "Ido chip status changed: 0x{hex2} ip={ip} v=13 t=4"),
        Template("INFO", "MONITOR", "node card temperature {temp}C on R0{small}-M0-N{small}"),
        Template("INFO", "HARDWARE", "Midplane switch R0{small}-M1 link training complete"),
    ),
    warnings=(
        Template("WARNING", "KERNEL", "ddr: activating redundant bit steering: rank={n} sym={n}"),
        Template("WARNING", "MONITOR", "node card temperature {temp}C exceeds warning level"),
        Template("WARNING", "MMCS", "idoproxy retry {small} of 5 talking to R0{small}-M0-N{small}"),
        Template("WARNING", "DISCOVERY", "Node card VPD check: missing U01 node, ecid {hex}"),
    ),
    errors=(
        Template("FATAL", "KERNEL", "data TLB error interrupt"),
        Template(
            "FATAL",
            "APP",
            "ciod: Error reading message prefix on CioStream socket to {ip}:{port}, "
            "Link has been severed",
        ),
        Template("SEVERE", "KERNEL", "machine check interrupt: L2 dcache unit read parity error"),
        Template(
            "FAILURE",
            "MMCS",
            "idoproxydb hit ASSERT condition: ASSERT expression=0 Source line={n} "
            "Function=IdoTransportMgr::SendPacket",
        ),
    ),
)


# --- Linux syslog (RFC 3164 lines as rsyslog writes them) ----------------------------------


def _syslog(record: Record) -> str:
    program = record.template.component
    day = f"{record.when:%b} {record.when.day:>2} {record.when:%H:%M:%S}"
    if program == "kernel":
        uptime = (record.when - SYSLOG.start).total_seconds() + 52_341.0
        return f"{day} web01 kernel: [{uptime:12.6f}] {record.message}"
    pid = "1" if program == "systemd" else str(stable(program, 300, 32_000))
    return f"{day} web01 {program}[{pid}]: {record.message}"


SYSLOG = LogFormat(
    name="linux-syslog",
    file_name="Linux_syslog_2k.log",
    start=datetime(2024, 3, 3, 10, 15, 2, tzinfo=UTC),
    render=_syslog,
    routine=(
        Template(ROUTINE, "systemd", "Started Session {n} of User deploy."),
        Template(ROUTINE, "systemd", "Starting Daily apt download activities..."),
        Template(ROUTINE, "systemd", "Finished Daily apt download activities."),
        Template(ROUTINE, "systemd", "logrotate.service: Deactivated successfully."),
        Template(ROUTINE, "CRON", "(root) CMD (cd / && run-parts --report /etc/cron.hourly)"),
        Template(ROUTINE, "sshd", "Accepted publickey for deploy from {ip} port {port} ssh2"),
        Template(ROUTINE, "sshd", "pam_unix(sshd:session): session opened for user deploy"),
        Template(ROUTINE, "sshd", "Disconnected from user deploy {ip} port {port}"),
        Template(ROUTINE, "kernel", "[UFW BLOCK] IN=eth0 OUT= SRC={ip} DST={ip} LEN={n} DPT={n}"),
        Template(ROUTINE, "dhclient", "DHCPREQUEST for {ip} on eth0 to {ip} port 67"),
        Template(ROUTINE, "dhclient", "bound to {ip} -- renewal in {n} seconds."),
        Template(ROUTINE, "systemd-logind", "New session {n} of user deploy."),
        Template(ROUTINE, "systemd-logind", "Removed session {n}."),
        Template(ROUTINE, "postfix/qmgr", "{hex}: from=<root@web01>, size={n}, nrcpt=1 (queue)"),
        Template(ROUTINE, "ntpd", "adjusting local clock by {f}s"),
        Template(ROUTINE, "mysqld", "[Note] InnoDB: Buffer pool(s) load completed at {n}"),
        Template(ROUTINE, "mysqld", "[Note] Aborted connection {n} to db: 'shop' (Got timeout)"),
        Template(ROUTINE, "nginx", "reloading configuration, {n} workers"),
    ),
    warnings=(
        Template(
            WARNING,
            "postfix/smtpd",
            "warning: hostname mail{n}.example.net does not resolve to address {ip}",
        ),
        Template(WARNING, "sshd", "warning: /etc/hosts.deny, line {n}: can't verify hostname"),
        Template(WARNING, "systemd", "Warning: unit file of nginx.service changed on disk"),
        Template(
            WARNING, "ntpd", "warning: kernel reports TIME_ERROR: 0x{n}: Clock Unsynchronized"
        ),
    ),
    errors=(
        Template(
            ERROR,
            "kernel",
            "EXT4-fs error (device sda{small}): ext4_find_entry:{n}: inode #{big}: comm nginx",
        ),
        Template(ERROR, "sshd", "error: kex_exchange_identification: Connection closed by peer"),
        Template(ERROR, "kernel", "nginx[{pid}]: segfault at {hex} ip {hex} error 4 in libc.so"),
        Template(ERROR, "mysqld", "[ERROR] InnoDB: Unable to lock ./ibdata1 error: 11"),
    ),
)


# --- nginx error log -----------------------------------------------------------------------


def _nginx(record: Record) -> str:
    pid = stable(record.template.message, 2000, 2200)
    connection = "" if record.template.component == "main" else f"*{record.seq * 7 + 1} "
    level = record.template.level
    return f"{record.when:%Y/%m/%d %H:%M:%S} [{level}] {pid}#{pid}: {connection}{record.message}"


_CLIENT = 'client: {ip}, server: shop.example.com, request: "'
_HOST = '", host: "shop.example.com"'
NGINX = LogFormat(
    name="nginx-error",
    file_name="nginx_error_2k.log",
    start=datetime(2023, 11, 14, 8, 12, 45, tzinfo=UTC),
    render=_nginx,
    routine=(
        Template("notice", "main", "signal process started"),
        Template("notice", "main", 'using the "epoll" event method'),
        Template("notice", "main", "start worker process {pid}"),
        Template("notice", "main", "signal 17 (SIGCHLD) received from {pid}"),
        Template("notice", "main", "worker process {pid} exited with code 0"),
        Template("info", "conn", "client {ip} closed keepalive connection"),
        Template(
            "info",
            "conn",
            "client timed out (110: Connection timed out) while waiting for request, "
            "client: {ip}, server: 0.0.0.0:443",
        ),
        # nginx writes failed TLS handshakes at info: the "error" in the text is OpenSSL's.
        Template(
            "info",
            "conn",
            "SSL_do_handshake() failed (SSL: error:0A00006C:SSL routines::bad key share) "
            "while SSL handshaking, client: {ip}, server: 0.0.0.0:443",
        ),
        Template("info", "conn", "client prematurely closed connection, " + _CLIENT + "GET /"),
        Template("info", "conn", "recv() failed (104: Connection reset by peer), client: {ip}"),
        Template("notice", "main", "gracefully shutting down"),
        Template("notice", "main", "exiting"),
    ),
    warnings=(
        Template(
            "warn",
            "conn",
            "an upstream response is buffered to a temporary file "
            "/var/cache/nginx/proxy_temp/{n}/{n}/{big} while reading upstream, "
            + _CLIENT
            + 'GET /api/catalog?page={n} HTTP/1.1", upstream: "http://127.0.0.1:8080/api/catalog'
            + _HOST,
        ),
        Template(
            "warn",
            "conn",
            "a client request body is buffered to a temporary file "
            "/var/cache/nginx/client_temp/{big}, " + _CLIENT + "POST /api/upload HTTP/1.1" + _HOST,
        ),
        Template("warn", "main", 'conflicting server name "shop.example.com" on 0.0.0.0:80'),
        Template("warn", "main", 'the "ssl" directive is deprecated, use "listen ... ssl"'),
    ),
    errors=(
        Template(
            "error",
            "conn",
            "upstream timed out (110: Connection timed out) while reading response header "
            "from upstream, "
            + _CLIENT
            + 'GET /api/orders/{n} HTTP/1.1", upstream: "http://127.0.0.1:8080/api/orders/{n}'
            + _HOST,
        ),
        Template(
            "error",
            "conn",
            "connect() failed (111: Connection refused) while connecting to upstream, "
            + _CLIENT
            + "GET /api/cart HTTP/1.1"
            + _HOST,
        ),
        Template(
            "crit",
            "conn",
            'open() "/var/lib/nginx/body/{big}" failed (28: No space left on device), client: {ip}',
        ),
        Template(
            "error",
            "conn",
            "no live upstreams while connecting to upstream, "
            + _CLIENT
            + 'POST /api/checkout HTTP/1.1", upstream: "http://checkout_backend/api/checkout'
            + _HOST,
        ),
    ),
)


# --- log4j / Logback (Java service) with stack traces --------------------------------------


def _log4j(record: Record) -> str:
    template = record.template
    thread = (
        "main"
        if template.component.startswith("org.springframework.boot")
        else f"http-nio-8080-exec-{stable(record.message, 1, 11)}"
    )
    stamp = f"{record.when:%Y-%m-%d %H:%M:%S},{record.when.microsecond // 1000:03d}"
    return f"{stamp} {template.level:<5} [{thread}] {template.component} - {record.message}"


_ORDERS = "com.acme.shop.orders.OrderService"
_PAYMENTS = "com.acme.shop.payments.PaymentClient"
_STOCK = "com.acme.shop.inventory.StockService"
_HIKARI = "com.zaxxer.hikari.pool.HikariPool"
_KAFKA = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"


def _frames(*frames: str) -> tuple[str, ...]:
    return tuple(f"\tat {frame}" for frame in frames)


LOG4J = LogFormat(
    name="log4j-java",
    file_name="Java_log4j_2k.log",
    start=datetime(2023, 11, 14, 8, 0, 3, tzinfo=UTC),
    render=_log4j,
    routine=(
        Template("INFO", "com.acme.shop.web.RequestLog", "GET /api/products?page={n} 200 {ms}ms"),
        Template("INFO", "com.acme.shop.web.RequestLog", "POST /api/cart 201 {ms}ms"),
        Template(
            "DEBUG", _HIKARI, "HikariPool-1 - Pool stats (total=10, active={small}, idle={small})"
        ),
        Template(
            "DEBUG", _HIKARI, "HikariPool-1 - Fill pool skipped, pool is at sufficient level."
        ),
        Template("INFO", _ORDERS, "Order {big} placed by customer {big}, total {f} EUR"),
        Template("INFO", _ORDERS, "Order {big} paid"),
        Template("INFO", _STOCK, "Reserved {n} items for order {big}"),
        Template("INFO", _STOCK, "Released reservation of order {big}"),
        Template("INFO", _KAFKA, "[Consumer groupId=orders] Committed offset {big} partition {n}"),
        Template(
            "DEBUG", "org.hibernate.SQL", "select p1_0.id,p1_0.name from product p1_0 where ?"
        ),
        Template("DEBUG", "com.acme.shop.cache.CatalogCache", "cache hit for key product:{big}"),
        Template("DEBUG", "com.acme.shop.cache.CatalogCache", "cache miss for key product:{big}"),
        Template("INFO", _PAYMENTS, "Authorized payment {hex} for order {big} in {ms} ms"),
        Template("INFO", "com.acme.shop.mail.Mailer", "Sent confirmation mail for order {big}"),
        Template(
            "INFO",
            "org.springframework.boot.web.embedded.tomcat.TomcatWebServer",
            "Tomcat started on port(s): 8080 (http) with context path ''",
        ),
        Template(
            "INFO",
            "org.springframework.boot.StartupInfoLogger",
            "Started ShopApplication in {f} seconds (process running for {f})",
        ),
    ),
    warnings=(
        Template(
            "WARN",
            _HIKARI,
            "HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta={n}s).",
        ),
        Template(
            "WARN",
            "org.apache.kafka.clients.NetworkClient",
            "[Consumer groupId=orders] Connection to node {n} ({ip}:9092) could not be "
            "established. Broker may not be available.",
        ),
        Template(
            "WARN", _PAYMENTS, "Retrying payment authorization for order {big}, attempt {small}"
        ),
        Template("WARN", "org.springframework.web.servlet.PageNotFound", "No mapping for GET /x"),
    ),
    errors=(
        Template(
            "ERROR",
            _PAYMENTS,
            "Payment authorization failed for order {big}",
            (
                "java.net.SocketTimeoutException: Read timed out",
                *_frames(
                    "java.base/java.net.SocketInputStream.socketRead0(Native Method)",
                    "java.base/java.net.SocketInputStream.read(SocketInputStream.java:{n})",
                    "com.acme.shop.payments.PaymentClient.authorize(PaymentClient.java:{n})",
                    "com.acme.shop.orders.OrderService.pay(OrderService.java:{n})",
                ),
            ),
        ),
        Template(
            "ERROR",
            "org.apache.catalina.core.ContainerBase.[Tomcat].[localhost].[/]",
            "Servlet.service() for servlet [dispatcherServlet] threw exception",
            (
                'java.lang.NullPointerException: Cannot invoke "Address.getCountry()" because '
                '"address" is null',
                *_frames(
                    "com.acme.shop.orders.ShippingQuote.of(ShippingQuote.java:{n})",
                    "com.acme.shop.web.CartController.quote(CartController.java:{n})",
                    "java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(Unknown)",
                ),
            ),
        ),
        Template(
            "ERROR",
            _STOCK,
            "Stock reservation failed for order {big}",
            (
                "org.springframework.dao.CannotAcquireLockException: could not execute statement",
                *_frames("com.acme.shop.inventory.StockService.reserve(StockService.java:{n})"),
                # A cause's own text may carry a level word: it is not a log line.
                "Caused by: org.postgresql.util.PSQLException: ERROR: deadlock detected",
                *_frames("org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(Q.java)"),
                "\t... {n} common frames omitted",
            ),
        ),
        Template(
            "ERROR",
            _ORDERS,
            "Failed to complete checkout for order {big}",
            (
                "java.lang.IllegalStateException: Order {big} is already being processed",
                *_frames(
                    "com.acme.shop.orders.OrderService.checkout(OrderService.java:{n})",
                    "com.acme.shop.web.CheckoutController.submit(CheckoutController.java:{n})",
                    "org.springframework.web.servlet.FrameworkServlet.service(Unknown Source)",
                ),
                "\t... {n} more",
            ),
        ),
    ),
)


# --- Python logging (``%(asctime)s - %(name)s - %(levelname)s - %(message)s``) ------------


def _python(record: Record) -> str:
    template = record.template
    stamp = f"{record.when:%Y-%m-%d %H:%M:%S},{record.when.microsecond // 1000:03d}"
    return f"{stamp} - {template.component} - {template.level} - {record.message}"


def _traceback(*frames: tuple[str, str, str], error: str) -> tuple[str, ...]:
    lines = ["Traceback (most recent call last):"]
    for path, function, code in frames:
        lines.append(f'  File "{path}", line {{n}}, in {function}')
        if code:
            lines.append(f"    {code}")
    return (*lines, error)


_PIPELINE = "ingest.pipeline"
_EXPORTER = "ingest.exporter"
PYTHON = LogFormat(
    name="python-logging",
    file_name="Python_logging_2k.log",
    start=datetime(2024, 3, 5, 2, 0, 0, tzinfo=UTC),
    render=_python,
    routine=(
        Template("DEBUG", "urllib3.connectionpool", "Starting new HTTPS connection (1): api:443"),
        Template(
            "DEBUG", "urllib3.connectionpool", 'https://api:443 "POST /v1/orders HTTP/1.1" 200 {n}'
        ),
        Template("INFO", _PIPELINE, "Processed batch {n} ({n} records) in {f}s"),
        Template("INFO", _PIPELINE, "Fetched {n} rows from source orders_{n}"),
        Template("DEBUG", _PIPELINE, "Batch {n} checksum {hex}"),
        Template("INFO", "ingest.db", "Committed {n} rows to warehouse.orders"),
        Template("INFO", "ingest.scheduler", "Next run scheduled at 2024-03-05 {n2}:00:00"),
        Template("INFO", "ingest.http", "GET /health 200 {ms}ms"),
        Template("INFO", "botocore.credentials", "Found credentials in environment variables."),
        Template("INFO", _EXPORTER, "Exported {n} rows to s3://warehouse-exports/orders/{n}.pq"),
        Template("DEBUG", _EXPORTER, "Multipart upload {hex} part {n} done"),
        Template("INFO", "ingest.metrics", "queue depth {n}, lag {f}s"),
    ),
    warnings=(
        Template("WARNING", _PIPELINE, "Record {big} has no customer_id; skipping"),
        Template(
            "WARNING",
            "urllib3.connectionpool",
            "Retrying (Retry(total={small}, connect=None, read=None)) after connection broken by "
            "'ReadTimeoutError(\"HTTPSConnectionPool(host='api.partner.example', port=443): "
            "Read timed out.\")': /v2/orders",
        ),
        Template("WARNING", "ingest.db", "Slow query ({f}s): SELECT * FROM orders WHERE id > %s"),
        Template(
            "WARNING",
            "py.warnings",
            "/opt/ingest/.venv/lib/python3.11/site-packages/pandas/core/frame.py:{n}: "
            "FutureWarning: DataFrame.applymap has been deprecated.",
        ),
    ),
    errors=(
        Template(
            "ERROR",
            _PIPELINE,
            "Failed to parse record {big}",
            _traceback(
                ("/opt/ingest/ingest/pipeline.py", "run_batch", "rows = [parse(r) for r in raw]"),
                ("/opt/ingest/ingest/pipeline.py", "parse", 'amount = Decimal(raw["amount"])'),
                error="decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]",
            ),
        ),
        Template(
            "ERROR",
            "ingest.db",
            "Database write failed, rolling back batch {n}",
            _traceback(
                ("/opt/ingest/ingest/db.py", "commit", "cursor.executemany(INSERT, rows)"),
                error="psycopg2.errors.UniqueViolation: duplicate key value violates unique "
                'constraint "orders_pkey"',
            ),
        ),
        Template(
            "CRITICAL",
            "ingest.http",
            "Unhandled exception in request handler",
            _traceback(
                ("/opt/ingest/ingest/http.py", "handle", "return route(request)"),
                ("/opt/ingest/ingest/http.py", "status", 'return state["customer"]'),
                error="KeyError: 'customer'",
            ),
        ),
        Template(
            "ERROR",
            _EXPORTER,
            "Export to s3://warehouse-exports/orders/{n}.pq failed",
            _traceback(
                ("/opt/ingest/ingest/exporter.py", "export", "client.put_object(**request)"),
                ("/opt/ingest/.venv/lib/python3.11/site-packages/botocore/client.py", "_api", ""),
                error="botocore.exceptions.ClientError: An error occurred (AccessDenied) when "
                "calling the PutObject operation: Access Denied",
            ),
        ),
    ),
)

FORMATS: tuple[LogFormat, ...] = (
    LOGCAT,
    HPC,
    PROXIFIER,
    NOVA,
    CBS,
    BGL,
    SYSLOG,
    NGINX,
    LOG4J,
    PYTHON,
)


def _schedule(fmt: LogFormat, rng: Random, lines: int) -> list[Template]:
    """Which template each record uses: warnings anywhere, errors before the last one."""
    last_error_at = int(lines * rng.uniform(*LAST_ERROR_SPAN))
    plan: dict[int, Template] = {last_error_at: fmt.errors[-1]}
    for template, count in zip(fmt.errors[:-1], ERROR_COUNTS, strict=True):
        free = [i for i in range(min(10, last_error_at), last_error_at) if i not in plan]
        plan.update(dict.fromkeys(rng.sample(free, min(count, len(free))), template))
    for template, count in zip(fmt.warnings, WARNING_COUNTS, strict=True):
        free = [i for i in range(min(5, lines), lines) if i not in plan]
        plan.update(dict.fromkeys(rng.sample(free, min(count, len(free))), template))
    # Routine lines repeat a few templates most (weights fall off as 1/rank).
    weights = [1 / (rank + 1) for rank in range(len(fmt.routine))]
    routine = rng.choices(fmt.routine, weights=weights, k=lines)
    return [plan.get(i, routine[i]) for i in range(lines)]


def generate(fmt: LogFormat, lines: int = LINES, seed: int | str | None = None) -> GeneratedLog:
    """About `lines` lines of `fmt` (a Java or Python error's trace adds its own lines); the
    same bytes for the same `seed` (by default the format's name)."""
    rng = Random(fmt.name if seed is None else f"{fmt.name}/{seed}")
    out: list[str] = []
    when = fmt.start
    for seq, template in enumerate(_schedule(fmt, rng, lines), start=1):
        when += timedelta(seconds=rng.expovariate(1 / 1.5))
        record = Record(template, fill(template.message, rng), when, seq)
        out.append(fmt.render(record))
        out.extend(fill(line, rng) for line in template.trace)
    return GeneratedLog(fmt.file_name, fmt.name, "\n".join(out) + "\n")


def generate_all(lines: int = LINES) -> list[GeneratedLog]:
    return [generate(fmt, lines) for fmt in FORMATS]
