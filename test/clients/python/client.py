"""The Python v1 binding, unchanged, as an integration used it.

prschmid/zoomus at its last v1 release (0.1.8, vendored under ../vendor/python-zoomus/) over
Debian's python3-requests: every param in the query string of a POST with no body (requests'
`params=`), dates and datetimes sent as "%Y-%m-%dT%H:%M:%SZ" (util.date_to_str), each answer a
requests.Response its caller decodes with json.loads(response.content), as the package's README
shows. The only thing changed is where it calls, by the class constant ZoomClient.BASE_URI, set
from the outside before a client is made (the components read it in ZoomClient.__init__).

Each answer is checked against what the call sent or what an earlier answer said; the first that
the binding's decoding refuses, that carries a v1 error, or that is wrong ends the program with a
non-zero status and the reason on stderr. It prints one JSON object of what it read.

Environment: V1_BASE_URL (…/v1), V1_API_KEY, V1_API_SECRET, OWNER_EMAIL, INVITE_EMAIL,
REPORT_FROM, REPORT_TO (YYYY-MM-DD).
"""

import datetime
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vendor", "python-zoomus"))

from zoomus import ZoomClient  # noqa: E402

ZoomClient.BASE_URI = os.environ["V1_BASE_URL"]


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def read(name, response):
    """json.loads(response.content), as the README reads every answer; a v1 error ends the run."""
    if response.status_code != 200:
        fail("%s: HTTP %d %s" % (name, response.status_code, response.text[:300]))
    try:
        answer = json.loads(response.content)
    except ValueError as error:
        fail("%s: not JSON (%s): %r" % (name, error, response.content[:300]))
    if not isinstance(answer, dict):
        fail("%s: not an object: %r" % (name, answer))
    if "error" in answer:
        fail("%s: v1 error %s %s" % (name, answer["error"].get("code"), answer["error"].get("message")))
    return answer


def expect(name, condition, detail):
    if not condition:
        fail("%s: %s" % (name, detail))


def day(text):
    return datetime.datetime.strptime(text, "%Y-%m-%d").date()


client = ZoomClient(os.environ["V1_API_KEY"], os.environ["V1_API_SECRET"])
out = {}

# Users: the owner by email, then the same user in the list and by id.
owner = read("user.get_by_email", client.user.get_by_email(email=os.environ["OWNER_EMAIL"], login_type=100))
expect("user.get_by_email", owner.get("email") == os.environ["OWNER_EMAIL"], "email %r" % owner.get("email"))
by_id = read("user.get", client.user.get(id=owner["id"]))
expect("user.get", by_id.get("email") == owner["email"], "another user: %r" % by_id.get("email"))
listed = read("user.list", client.user.list(page_size=300))
expect("user.list", isinstance(listed.get("users"), list), "no users list")
expect("user.list", owner["id"] in [u["id"] for u in listed["users"]], "the owner is not listed")
expect("user.list", listed["total_records"] >= len(listed["users"]), "total_records %r" % listed["total_records"])
out["owner_id"] = owner["id"]

# An invitation: created, pending, renamed, deleted.
invited = read("user.create", client.user.create(email=os.environ["INVITE_EMAIL"], type=1, first_name="Py"))
expect("user.create", invited.get("email") == os.environ["INVITE_EMAIL"], "email %r" % invited.get("email"))
pending = read("user.pending", client.user.pending())
expect("user.pending", invited["id"] in [u["id"] for u in pending["users"]], "the invited user is not pending")
updated_user = read("user.update", client.user.update(id=invited["id"], last_name="Zoomus"))
expect("user.update", updated_user.get("id") == invited["id"], "id %r" % updated_user.get("id"))
deleted_user = read("user.delete", client.user.delete(id=invited["id"]))
expect("user.delete", deleted_user.get("id") == invited["id"], "id %r" % deleted_user.get("id"))
out["invited_id"] = invited["id"]

# A meeting: created with a datetime, read, renamed, listed, deleted.
start = datetime.datetime(2030, 1, 15, 9, 30, 0)
meeting = read(
    "meeting.create",
    client.meeting.create(
        host_id=owner["id"], topic="Python zoomus", type=2, start_time=start, duration=45, option_jbh=True
    ),
)
expect("meeting.create", meeting.get("topic") == "Python zoomus", "topic %r" % meeting.get("topic"))
expect("meeting.create", meeting.get("start_time") == "2030-01-15T09:30:00Z", "start_time %r" % meeting.get("start_time"))
got = read("meeting.get", client.meeting.get(id=meeting["id"], host_id=owner["id"]))
expect("meeting.get", got.get("id") == meeting["id"], "id %r, created %r" % (got.get("id"), meeting["id"]))
expect("meeting.get", got.get("duration") == 45, "duration %r" % got.get("duration"))
# requests writes a Python bool as str() does: "True".
expect("meeting.get", got.get("option_jbh") is True, "option_jbh %r" % got.get("option_jbh"))
renamed = read("meeting.update", client.meeting.update(id=meeting["id"], host_id=owner["id"], topic="Renamed by Python"))
expect("meeting.update", str(renamed.get("id")) == str(meeting["id"]), "id %r" % renamed.get("id"))
meetings = read("meeting.list", client.meeting.list(host_id=owner["id"], page_size=300))
mine = [m for m in meetings["meetings"] if m["id"] == meeting["id"]]
expect("meeting.list", len(mine) == 1, "the meeting is listed %d times" % len(mine))
expect("meeting.list", mine[0]["topic"] == "Renamed by Python", "topic %r" % mine[0]["topic"])
deleted = read("meeting.delete", client.meeting.delete(id=meeting["id"], host_id=owner["id"]))
expect("meeting.delete", str(deleted.get("id")) == str(meeting["id"]), "id %r" % deleted.get("id"))
out["meeting_id"] = meeting["id"]
gone = json.loads(client.meeting.get(id=meeting["id"], host_id=owner["id"]).content)
expect("meeting.get", "error" in gone, "the deleted meeting was found: %r" % gone)
out["deleted_meeting_error"] = gone["error"]
out["meeting_topic"] = mine[0]["topic"]

# A webinar taking registration: created, read, renamed, one registrant, listed, deleted.
webinar = read(
    "webinar.create",
    client.webinar.create(
        host_id=owner["id"], topic="Python webinar", type=5, start_time=start, duration=60, approval_type=0
    ),
)
got = read("webinar.get", client.webinar.get(id=webinar["id"], host_id=owner["id"]))
expect("webinar.get", got.get("topic") == "Python webinar", "topic %r" % got.get("topic"))
read("webinar.update", client.webinar.update(id=webinar["id"], host_id=owner["id"], topic="Renamed webinar"))
registrant = read(
    "webinar.register",
    client.webinar.register(id=webinar["id"], email="attendee@example.com", first_name="Ada", last_name="Py"),
)
# v1 answers the registrant's id beside the webinar's own id and topic.
expect("webinar.register", registrant.get("registrant_id"), "no registrant_id: %r" % registrant)
expect("webinar.register", registrant.get("id") == webinar["id"], "id %r" % registrant.get("id"))
expect("webinar.register", registrant.get("topic") == "Renamed webinar", "topic %r" % registrant.get("topic"))
# v1 lists a webinar that takes registration among the upcoming ones, not in webinar/list.
upcoming = read("webinar.upcoming", client.webinar.upcoming(host_id=owner["id"]))
listed_webinar = [w for w in upcoming["webinars"] if w["id"] == webinar["id"]]
expect("webinar.upcoming", [w["topic"] for w in listed_webinar] == ["Renamed webinar"], "listed %r" % listed_webinar)
webinars = read("webinar.list", client.webinar.list(host_id=owner["id"]))
expect("webinar.list", webinar["id"] not in [w["id"] for w in webinars["webinars"]], "a registration webinar listed")
read("webinar.delete", client.webinar.delete(id=webinar["id"], host_id=owner["id"]))
out["webinar_id"] = webinar["id"]
out["registrant_id"] = registrant["registrant_id"]

# Reports over the month of the two sessions the test made happen, sent as dates.
first, last = day(os.environ["REPORT_FROM"]), day(os.environ["REPORT_TO"])
account = read("report.get_account_report", client.report.get_account_report(start_time=first, end_time=last))
expect("report.get_account_report", account.get("from") and account.get("to"), "no from/to: %r" % account)
user_report = read(
    "report.get_user_report",
    client.report.get_user_report(user_id=owner["id"], start_time=first, end_time=last),
)
out["report_from"] = account["from"]
out["report_to"] = account["to"]
out["report_users"] = [u.get("email") for u in account.get("users", [])]
out["user_report_meetings"] = [m.get("number") for m in user_report.get("meetings", [])]

# Cloud recordings of the owner over the same month.
recordings = read("recording.list", client.recording.list(host_id=owner["id"], start=first, end=last))
expect("recording.list", isinstance(recordings.get("meetings"), list), "no meetings list: %r" % recordings)
out["recordings"] = recordings["total_records"]

print(json.dumps(out))
