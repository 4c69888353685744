#!/usr/bin/env python3
"""Writes SampleData/demo/push/ and subjects/notification_preferences.csv
(SPEC §11.1) from the sample drop's own tasks: reminders of real task
instances (some after the task was done, some in the night), coach
messages and a risk flag to the coach, providers' error codes, retries,
receipts, a revoked token that still gets sends, and a few designed bad
rows. Deterministic (fixed seed); a developer tool, not part of dayfold.

    python3 Scripts/make-sample-push.py   # rewrites the files in place
"""
import csv
import datetime as dt
import io
import os
import random
import subprocess
import uuid
from zoneinfo import ZoneInfo

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "SampleData", "demo")
EXPORTED = dt.datetime(2026, 3, 31, 17, 30, tzinfo=dt.timezone.utc)
rng = random.Random(20260331)


def read(path):
    full = os.path.join(ROOT, path)
    data = subprocess.run(["zstd", "-dc", full], capture_output=True, check=True).stdout if full.endswith(".zst") \
        else open(full, "rb").read()
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def ident(*parts):
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "dayfold-sample-push:" + ":".join(map(str, parts))))


def iso(moment):
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write(path, header, rows):
    full = os.path.join(ROOT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", newline="") as handle:
        out = csv.writer(handle, lineterminator="\n")
        out.writerow(header)
        out.writerows(rows)


relationships = read("subjects/relationships.csv")
def known_zone(name):
    try:
        ZoneInfo(name)
        return True
    except Exception:
        return False


# The latest valid zone per user (the file's bad rows name zones that do not exist).
zones = {row["user_id"]: row["timezone"] for row in read("subjects/timezones.csv") if known_zone(row["timezone"])}
instances = []
for name in sorted(os.listdir(os.path.join(ROOT, "tasks/instances"))):
    instances += read("tasks/instances/" + name)
completed = {}
for name in sorted(os.listdir(os.path.join(ROOT, "tasks/status_events"))):
    for event in read("tasks/status_events/" + name):
        if event["to_status"] == "COMPLETED" and event["occurred_at"]:
            try:
                moment = dt.datetime.fromisoformat(event["occurred_at"].replace(" ", "T"))
            except ValueError:
                continue
            if moment.tzinfo is not None:
                completed.setdefault(event["daily_task_instance_id"], moment)

client_of = {row["relationship_id"]: row["client_user_id"] for row in relationships}
coach = relationships[0]["coach_user_id"]
clients = [row["client_user_id"] for row in relationships]

# Installations: one phone per client (one with no app version, one revoked
# on 2026-03-20), a second phone for two clients, the coach's phone.
installations, device = [], {}
versions = ["2.9.0", "2.10.0", "2.11.0"]
for index, user in enumerate(clients):
    device[user] = ident("installation", user)
    platform = "IOS" if index % 2 == 0 else "ANDROID"
    revoked = "2026-03-20T12:00:00Z" if index == 3 else ""
    installations.append([device[user], user, "CLIENT_MOBILE", platform, "EXPO",
                          "" if index == 5 else versions[index % 3], "production", "GRANTED", "en_US",
                          zones.get(user, ""), "2026-03-31T08:00:00Z", revoked,
                          "sample-device-" + str(index), "sample-token-hash-" + str(index)])
    if index in (1, 6):
        installations.append([ident("installation-2", user), user, "CLIENT_MOBILE", "IOS", "APNS", "2.11.0",
                              "production", "GRANTED", "en_GB", zones.get(user, ""), "2026-03-30T08:00:00Z", "",
                              "sample-device-b" + str(index), "sample-token-hash-b" + str(index)])
device[coach] = ident("installation", coach)
installations.append([device[coach], coach, "COACH_MOBILE", "ANDROID", "FCM", "5.1.0", "production", "GRANTED",
                      "en_US", "", "2026-03-31T08:00:00Z", "", "sample-device-coach", "sample-token-hash-coach"])
# A designed bad row: a platform that is not IOS or ANDROID.
installations.append([ident("installation-web"), clients[0], "CLIENT_MOBILE", "WEB", "EXPO", "2.11.0", "production",
                      "GRANTED", "en_US", "", "", "", "sample-device-web", "sample-token-hash-web"])
write("push/installations/installations-000.csv",
      ["id", "user_id", "app_surface", "platform", "provider", "app_version", "environment", "permission_status",
       "locale", "timezone", "last_seen_at", "revoked_at", "device_id", "provider_token_hash"], installations)

# Quiet hours: most clients 22:00-07:00; one changes to 23:00-06:00 on
# 2026-03-01; one has equal ends (never quiet); a designed bad time.
preferences = []
for index, user in enumerate(clients[:8]):
    start, end = ("22:00", "07:00") if index != 4 else ("08:00", "08:00")
    preferences.append([user, "2025-09-01T00:00:00Z", start, end, "true"])
preferences.append([clients[1], "2026-03-01T00:00:00Z", "23:00", "06:00", "true"])
preferences.append([clients[2], "2026-03-10T00:00:00Z", "7:30", "06:00", "true"])
write("subjects/notification_preferences.csv", ["user_id", "effective_from", "quiet_start", "quiet_end",
                                                "push_enabled"], preferences)

intents, deliveries, receipts = [], [], []
codes = ["MessageTooBig", "InvalidCredentials", "InternalServerError", "TooManyRequests", "MismatchSenderId"]


def send(intent_id, recipient, relationship, context, record, category, scheduled, revoked_at=None):
    """One intent, its delivery to the recipient's phone and maybe a receipt."""
    created = scheduled - dt.timedelta(hours=2)
    if created > EXPORTED or (revoked_at and scheduled > revoked_at + dt.timedelta(days=3)):
        return  # not yet created; or the platform has stopped sending to a revoked token
    roll = rng.random()
    status, code, attempts = "DELIVERED", "", 1
    if roll > 0.97:
        status = "PENDING"
    elif roll > 0.94:
        status, code, attempts = "TRANSIENT_FAILED", "ServiceUnavailable", 2
    elif roll > 0.90:
        status, code = "FAILED", rng.choice(codes)
    elif roll > 0.84:
        status = "SENT"
    sent = scheduled + dt.timedelta(seconds=rng.randint(1, 20))
    if revoked_at and sent >= revoked_at:
        status, code = "INVALID_TOKEN", "DeviceNotRegistered"
    if status != "PENDING" and sent > EXPORTED:
        status = "PENDING"
    is_sent = status != "PENDING"
    intents.append([intent_id, recipient, relationship, context, record, category, "NORMAL",
                    "push." + category.lower() + ".title", ident("key", intent_id), iso(scheduled),
                    "SENT" if is_sent else "READY", iso(created)])
    delivery = ident("delivery", intent_id)
    deliveries.append([delivery, intent_id, device[recipient], "EXPO", status, attempts, code,
                       "sample detail" if code else "", iso(sent) if is_sent else "",
                       iso(sent + dt.timedelta(seconds=3)) if code else ""])
    if is_sent and rng.random() < 0.6:
        received = sent + dt.timedelta(minutes=rng.randint(10, 40))
        if received <= EXPORTED:
            ok = status in ("DELIVERED", "SENT") and rng.random() < 0.97
            receipts.append([ident("receipt", delivery), delivery, "EXPO", "OK" if ok else "ERROR",
                             "" if ok else (code or ("DeviceNotRegistered" if revoked_at and sent >= revoked_at else "InternalServerError")), "{\"sample\": true}", iso(received)])


revoked_user = clients[3]
for task in instances:
    if task["task_kind"] not in ("WORKOUT", "MEAL", "CHECK_IN", "HABIT") or rng.random() > 0.3:
        continue
    user = client_of.get(task["relationship_id"])
    zone = task["timezone"]
    if user is None or not zone:
        continue
    day = dt.date.fromisoformat(task["local_date"])
    local = dt.datetime.combine(day, dt.time(9, 0), ZoneInfo(zone))
    done = completed.get(task["id"])
    roll = rng.random()
    if done and roll < 0.06:
        scheduled = done + dt.timedelta(minutes=20)  # after it was done: a wasted reminder
    elif roll < 0.10:
        scheduled = dt.datetime.combine(day, dt.time(23, 30), ZoneInfo(zone))  # in the night
    elif done:
        scheduled = done - dt.timedelta(minutes=rng.randint(15, 240))
    else:
        scheduled = local
    category = {"WORKOUT": "WORKOUT_DUE", "MEAL": "MEAL_DUE", "CHECK_IN": "CHECK_IN_DUE"}.get(task["task_kind"],
                                                                                            "COACH_TASK")
    send(ident("intent", task["id"]), user, task["relationship_id"], "DAILY_EXECUTION", task["id"], category,
         scheduled.astimezone(dt.timezone.utc),
         dt.datetime(2026, 3, 20, 12, tzinfo=dt.timezone.utc) if user == revoked_user else None)

for row in relationships:
    for offset in range(0, 60, 4):
        day = dt.date(2026, 1, 31) + dt.timedelta(days=offset)
        moment = dt.datetime.combine(day, dt.time(12, rng.randint(0, 59)), dt.timezone.utc)
        send(ident("message", row["relationship_id"], offset), row["client_user_id"], row["relationship_id"],
             "MESSAGING", ident("message-record", row["relationship_id"], offset), "MESSAGE", moment)
send(ident("risk", relationships[2]["relationship_id"]), coach, relationships[2]["relationship_id"], "RISK",
     relationships[2]["relationship_id"], "RISK_FLAG", dt.datetime(2026, 3, 30, 15, 0, tzinfo=dt.timezone.utc))

# Designed bad rows: a delivery of an intent that is not exported, a receipt of an unknown delivery.
deliveries.append([ident("orphan-delivery"), ident("missing-intent"), device[clients[0]], "EXPO", "DELIVERED", 1,
                   "", "", "2026-03-30T10:00:00Z", ""])
receipts.append([ident("orphan-receipt"), ident("missing-delivery"), "EXPO", "OK", "", "{}",
                 "2026-03-30T10:30:00Z"])
write("push/intents/intents-000.csv",
      ["id", "recipient_user_id", "relationship_id", "source_context", "source_record_id", "category", "priority",
       "title_key", "idempotency_key", "scheduled_for", "status", "created_at"], intents)
write("push/deliveries/deliveries-000.csv",
      ["id", "intent_id", "installation_id", "provider", "status", "attempt_count", "last_error_code",
       "last_error_detail", "sent_at", "failed_at"], deliveries)
write("push/receipts/receipts-000.csv",
      ["id", "delivery_id", "provider", "receipt_status", "provider_error_code", "raw_payload", "received_at"],
      receipts)
print(f"{len(installations)} installations, {len(intents)} intents, {len(deliveries)} deliveries, "
      f"{len(receipts)} receipts, {len(preferences)} preference rows")
