"""schemathesis hooks for scripts/fuzz-api (loaded through SCHEMATHESIS_HOOKS; why in docs/api.md, "Fuzzing").

- Real things: before each request, most path parameters, some headers, query values and bodies are swapped
  for things the server holds (scripts/lib/fuzz_fixtures.py made them): a gallery and its items, a signed
  image or media address, a link's slug, a token's id, a member's name, a revision for If-Match and
  Last-Event-ID. schemathesis revalidates a case its `before_call` hook changed, so a request stays positive or
  negative by what is actually sent.
- Callers: with accounts each request goes as one of the owner (token or session), an editor, a viewer, a
  stranger, a read-only token, or nobody.
- Repair: after a change that removed a real thing (a gallery deleted for good, a link revoked, signed out
  everywhere), it is put back, so the rest of the run still meets real things.
- Counting: each operation's answers by status; printed as a table when schemathesis exits.

Choices come from a generator seeded with TESSERA_FUZZ_SEED (0 for the deterministic run): one worker sends the
same cases in the same order, so the same seed makes the same choices.
"""

from __future__ import annotations

import atexit
import collections
import json
import os
import random
import sys

import schemathesis
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_fixtures  # noqa: E402

FIXTURES = json.load(open(os.environ["TESSERA_FUZZ_FIXTURES"]))
PASS = os.environ.get("TESSERA_FUZZ_PASS", FIXTURES["auth"])
RANDOM = random.Random(int(os.environ.get("TESSERA_FUZZ_SEED", "0")))
# How often a generated value is swapped for a real one: most requests should get past the first lookup,
# some should still send what schemathesis made up.
# TESSERA_FUZZ_REAL=0 turns swapping and callers off, to see what schemathesis reaches alone.
REAL = float(os.environ.get("TESSERA_FUZZ_REAL", "0.7"))

COUNTS: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
REVISION = {"main": 1}

# Operations whose success may take a real thing away; the fixtures are checked after each.
DESTRUCTIVE = {
    "deleteGallery",
    "restoreGallery",
    "removeGalleryItem",
    "revokeLink",
    "revokeToken",
    "removeGalleryMember",
    "addGalleryMember",
    "signOut",
    "signOutEverywhere",
}


def chance(probability: float = REAL) -> bool:
    return RANDOM.random() < probability


def pick(values):
    return RANDOM.choice(values) if values else None


def operation_id(case) -> str:
    return case.operation.definition.raw.get("operationId", case.operation.label)


# MARK: - Path parameters


def real_path(case) -> dict | None:
    """One consistent set of real path values for this operation, or None."""
    path = case.operation.path
    main = FIXTURES["main"]
    links = FIXTURES["links"]
    if path.startswith("/api/galleries/{id}") or path == "/galleries/{id}":
        gallery = main if chance(0.85) else FIXTURES["deleted"]
        values = {"id": gallery["id"]}
        if "{itemId}" in path:
            values["itemId"] = pick(gallery["items"]) or pick(main["items"])
        if "{name}" in path:
            values["name"] = pick(FIXTURES["members"] + ["owner", "stranger"])
        return values
    if path in ("/api/items/{source}/{id}", "/item/{source}/{id}"):
        native = pick(FIXTURES["native"])
        return {"source": native[0], "id": native[1]} if native else None
    if path == "/img/{variant}/{signature}/{source}":
        image = pick(FIXTURES["images"])
        if not image:
            return None
        variant = image[0] if chance(0.5) else pick(["thumb", "preview", "original"])
        return {"variant": variant, "signature": image[1], "source": image[2]}
    if path == "/media/{signature}/{source}":
        media = pick(FIXTURES["media"])
        return {"signature": media[0], "source": media[1]} if media else None
    if path == "/s/{slug}/img/{variant}/{signature}/{source}":
        shared = pick(FIXTURES["shared"])
        if not shared:
            return None
        return {"slug": shared[0], "variant": shared[1], "signature": shared[2], "source": shared[3]}
    if path.startswith("/app/") and FIXTURES.get("app"):
        parts = pick(FIXTURES["app"])
        names = [name.strip("{}") for name in path.split("/")[2:]]
        if len(parts) == len(names):
            return dict(zip(names, parts))
        return {"file": parts[-1]} if names == ["file"] else None
    if "{slug}" in path and links:
        return {"slug": pick(list(links.values()))["slug"]}
    if path == "/api/links/{linkId}" and links:
        # Mostly the spare link: revoking the others takes more to put back.
        key = "spare" if chance(0.8) else pick(list(links))
        return {"linkId": links[key]["id"]}
    if path == "/api/tokens/{id}" and FIXTURES["accounts"]:
        return {"id": FIXTURES["accounts"]["owner"]["tokens"]["spare"]["id"]}
    return None


# MARK: - Headers, query, body


def revision_values() -> list[str]:
    revision = REVISION["main"]
    return [str(revision), f'"{revision}"', f'W/"{revision}"', "*", str(max(revision - 1, 0))]


def real_headers(case, headers: dict) -> None:
    declared = {parameter.name.lower() for parameter in case.operation.headers}
    if "if-match" in declared and chance(0.5):
        headers["If-Match"] = pick(revision_values())
    if "last-event-id" in declared and chance(0.5):
        revision = REVISION["main"]
        headers["Last-Event-ID"] = str(pick([0, 1, max(revision - 1, 0), revision, revision + 1]))
    if "range" in declared and chance(0.5):
        headers["Range"] = pick(
            ["bytes=0-99", "bytes=100-", "bytes=-100", "bytes=0-0", "bytes=-0", "bytes=5-3", "bytes=0-1,5-9",
             "bytes=18446744073709551615-", "bytes=-9223372036854775808", "bytes=0-9223372036854775807",
             "bytes=9223372036854775807-9223372036854775808", "bytes= 0-1", "bytes=+0-1"]
        )
    if "x-tessera-link-password" in declared and chance(0.5):
        headers["X-Tessera-Link-Password"] = FIXTURES["linkPassword"]


def real_query(case) -> None:
    if operation_id(case) == "galleriesHoldingItems" and FIXTURES["searchItems"] and chance():
        ids = [item["id"] for item in FIXTURES["searchItems"]]
        case.query = {**(case.query or {}), "id": RANDOM.sample(ids, k=min(len(ids), RANDOM.randint(1, 4)))}


def real_body(case) -> None:
    body = case.body
    if not isinstance(body, dict) or not chance():
        return
    name = operation_id(case)
    if name == "addGalleryItem" and "item" in body and FIXTURES["searchItems"]:
        body["item"] = pick(FIXTURES["searchItems"])
    elif name == "addGalleryMember" and "name" in body:
        body["name"] = pick(["editor", "viewer", "stranger"])
    elif name == "signIn" and chance(0.2):
        body["name"], body["password"] = pick(list(fuzz_fixtures.ACCOUNTS)), fuzz_fixtures.PASSWORD
    elif name == "unlockSharedGallery" and "password" in body:
        body["password"] = FIXTURES["linkPassword"]


# MARK: - Callers


def caller(case) -> dict:
    """Who sends this request (accounts mode): mostly the owner, sometimes someone with less or no right."""
    accounts = FIXTURES["accounts"]
    if not accounts:
        return {}
    name = operation_id(case)
    owner = accounts["owner"]
    session = {"Cookie": owner["session"], "X-Tessera-Client": "fuzz"}
    if name in ("createToken", "listTokens", "revokeToken") and chance(0.8):
        return session
    if name in ("signOut", "signOutEverywhere"):
        # Ending the owner's session would leave the requests after it with a dead cookie until repaired.
        return {"Authorization": f"Bearer {accounts['editor']['tokens']['write']['secret']}", "X-Tessera-Client": "fuzz"}
    # Not sent here: no credentials (401), a read-only token (403 before routing, so before a 405) and another
    # site's cookie (403 cross_site): docs/openapi.yaml names those once for all operations, not on each, and
    # the test that walks every operation with every kind of caller holds the server to them.
    app = {"X-Tessera-Client": "fuzz"}
    roll = RANDOM.random()
    if roll < 0.6:
        return {"Authorization": f"Bearer {owner['tokens']['write']['secret']}", **app}
    if roll < 0.72:
        return session
    for threshold, who in ((0.82, "editor"), (0.92, "viewer"), (1.0, "stranger")):
        if roll < threshold:
            return {"Authorization": f"Bearer {accounts[who]['tokens']['write']['secret']}", **app}
    return session


@schemathesis.hook
def before_call(context, case, kwargs):
    if REAL == 0:
        return
    if case.path_parameters and chance():
        values = real_path(case)
        if values:
            case.path_parameters.update({key: value for key, value in values.items() if key in case.path_parameters})
    headers = case.headers if case.headers is not None else {}
    real_headers(case, headers)
    for key in [key for key in headers if key.lower() in ("authorization", "cookie")]:
        del headers[key]
    headers.update(caller(case))
    case.headers = headers
    real_query(case)
    real_body(case)


# MARK: - Failures that are the state of things, not the server's fault


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """False drops a failure: each a rule no JSON Schema can state, or no internet."""
    name = operation_id(case)
    kind = type(failure).__name__
    headers = {key.lower(): value for key, value in (case.headers or {}).items()}
    # An empty Last-Event-ID is no Last-Event-ID (what a browser sends after an empty id): a fresh snapshot.
    if name == "galleryEvents" and kind == "AcceptedNegativeData" and headers.get("last-event-id", None) in ("", True):
        return False
    # A link's expiry must be in the future (400 invalid_link): a date-time schema cannot say "after now".
    body = case.body if isinstance(case.body, dict) else {}
    # (Only that refusal is dropped here: a link refused for another reason goes on to the rules below.)
    if name == "createGalleryLink" and kind == "RejectedPositiveData" and isinstance(body.get("expiresAt"), str):
        if b"in the future" in response.content:
            return False
    # A form field cannot hold an array: schemathesis leaves an array `allowNearDuplicate` out of a multipart
    # upload, so the body sent is valid (and If-Match is the hooks' valid one): a stale revision is then a 412.
    sent = getattr(response.request, "body", None) or b""
    if (
        name == "addGalleryItem"
        and kind == "AcceptedNegativeData"
        and response.status_code == 412
        and not isinstance(body.get("allowNearDuplicate", False), (bool, str, int))
        and isinstance(sent, bytes)
        and b'name="allowNearDuplicate"' not in sent
        and b'Content-Disposition: form-data; name="file"' in sent
    ):
        return False
    # A link password is at most 72 bytes (bcrypt reads no further): maxLength counts characters, not bytes.
    password = body.get("password")
    if name == "createGalleryLink" and kind == "RejectedPositiveData" and isinstance(password, str):
        if len(password.encode("utf-8", "surrogatepass")) > 72:
            return b"at most 72 bytes" not in response.content
    # The gallery's owner cannot also be its member (400 invalid_member): a name schema cannot say "not the owner's".
    # Whoever made the gallery owns it (a gallery made by a request sent as the editor is the editor's).
    if name == "addGalleryMember" and kind == "RejectedPositiveData" and b"owns this gallery already" in response.content:
        return False
    # No internet here: an outside image address is the guarded fetcher's documented 502 (unresolvable), met
    # by a valid request too (positive_data_acceptance) or as a 5xx (not_a_server_error).
    if (
        name in ("dropSharedItem", "addGalleryItem")
        and kind in ("ServerError", "RejectedPositiveData")
        and response.status_code == 502
    ):
        return b'"unresolvable"' not in response.content
    return True


# MARK: - After each answer


@schemathesis.hook
def after_call(context, case, response):
    name = operation_id(case)
    COUNTS[case.operation.label][response.status_code] += 1
    if case.path_parameters and case.path_parameters.get("id") == FIXTURES["main"]["id"]:
        track_revision(response)
    if name in DESTRUCTIVE and 200 <= response.status_code < 300:
        try:
            fuzz_fixtures.repair(FIXTURES)
        except Exception as error:  # a repair that fails leaves fewer real things, not a failed run
            print(f"fuzz-hooks: could not put the fixtures back after {name}: {error}", file=sys.stderr)


@schemathesis.hook
def after_network_error(context, case, request):
    COUNTS[case.operation.label]["network error"] += 1
    # schemathesis names no request for a network error (a crash, a hang): this is the one to replay.
    try:
        replay = case.as_curl_command(headers=dict(request.headers))
    except Exception:  # the request as sent is the next best thing
        replay = f"{request.method} {request.url} {dict(request.headers)} {request.body!r}"
    print(f"fuzz-hooks: network error on {case.operation.label}; the request: {replay}", file=sys.stderr, flush=True)


def track_revision(response) -> None:
    etag = response.headers.get("etag") or response.headers.get("ETag")
    if isinstance(etag, list):
        etag = etag[0] if etag else None
    if etag:
        digits = "".join(character for character in etag if character.isdigit())
        if digits and len(digits) < 19:
            REVISION["main"] = int(digits)


# MARK: - The table


def status_class(status) -> str:
    if not isinstance(status, int):
        return "err"
    if status in (400, 401, 403, 404):
        return str(status)
    return f"{status // 100}xx" if status < 400 or status >= 500 else "4xx"


COLUMNS = ["2xx", "3xx", "400", "401", "403", "404", "4xx", "5xx", "err"]


def print_table() -> None:
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "openapi.yaml")) as file:
        document = yaml.safe_load(file)
    labels = [
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method in ("get", "head", "post", "put", "patch", "delete")
    ]
    lines = [f"==> answers per operation ({PASS} pass): status classes; err is a network error"]
    lines.append(f"{'operation':58}" + "".join(f"{column:>7}" for column in COLUMNS))
    only_404, only_auth, unreached = [], [], []
    for label in labels:
        counts = collections.Counter()
        for status, count in COUNTS.get(label, {}).items():
            counts[status_class(status)] += count
        lines.append(f"{label[:58]:58}" + "".join(f"{counts.get(column, 0):>7}" for column in COLUMNS))
        classes = {key for key, value in counts.items() if value}
        if not classes:
            unreached.append(label)
        elif classes <= {"400", "404"} and "404" in classes:
            only_404.append(label)
        elif classes <= {"400", "401", "403"} and classes & {"401", "403"}:
            only_auth.append(label)
    reached = len(labels) - len(unreached)
    lines.append(
        f"{reached} of {len(labels)} operations called; only 404 (past 400): {len(only_404)}; "
        f"only 401/403 (past 400): {len(only_auth)}"
    )
    for title, group in (("only 404", only_404), ("only 401/403", only_auth), ("never called", unreached)):
        if group:
            lines.append(f"  {title}: " + ", ".join(group))
    output = os.environ.get("TESSERA_FUZZ_COUNTS")
    if output:
        with open(output, "w") as file:
            json.dump({label: {str(k): v for k, v in counts.items()} for label, counts in COUNTS.items()}, file)
    print("\n".join(lines), flush=True)


atexit.register(print_table)
