"""Real things for the API fuzzer to act on (scripts/fuzz-api; why in docs/api.md, "Fuzzing").

`seed` fills a fresh `tessera serve` through its own API: a gallery with items added from a search, a gallery
in Recently deleted, and, with accounts, tokens for each kind of caller, members, and view and drop links with
and without a password. It writes what it made as JSON, which scripts/lib/fuzz_hooks.py reads. `repair` puts
back what a fuzzed request took away (a gallery deleted for good, a revoked link), so later requests still meet
real things. Standard library only: it runs with the python3 that runs schemathesis.

    python3 scripts/lib/fuzz_fixtures.py seed --url http://127.0.0.1:PORT --auth none|accounts --out FILE
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import sys
import urllib.parse

# The accounts scripts/fuzz-api makes with `tessera user add` before the server starts (accounts mode).
PASSWORD = "fuzz-password"
ACCOUNTS = {"owner": True, "editor": False, "viewer": False, "stranger": False}  # name: admin
LINK_PASSWORD = "link-password"
QUERIES = ["cat", "volcano", "music", "movie"]


class APIError(Exception):
    pass


# The fixtures connect from an address of their own: schemathesis (from 127.0.0.1) sends wrong passwords by the
# thousand, and the sign-in back-off that locks its address out must not lock out the repairs' sign-ins too.
SOURCE_ADDRESS = ("127.0.0.2", 0)


class Client:
    """One server; each call names who makes it (a token, a session cookie, or nobody)."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.source = SOURCE_ADDRESS if self.host == "127.0.0.1" else None

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=60, source_address=self.source)

    def call(self, method: str, path: str, body=None, *, auth: dict | None = None, expect=(200, 201, 204)):
        headers = {"Accept": "application/json", "X-Tessera-Client": "fuzz-fixtures"}
        headers.update(auth or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection = self.connection()
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            raw = response.read()
            cookies = response.headers.get_all("Set-Cookie") or []
        finally:
            connection.close()
        if response.status not in expect:
            raise APIError(f"{method} {path} answered {response.status}: {raw[:300]!r}")
        value = json.loads(raw) if raw and raw.lstrip()[:1] in (b"{", b"[") else None
        return response.status, value, cookies


def bearer(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


def search_items(client: Client, auth: dict) -> list[dict]:
    """Search results with an image, from every source that answers, a few per source."""
    items: dict[str, dict] = {}
    for query in QUERIES:
        _, page, _ = client.call("GET", f"/api/search?q={query}&scope=all", auth=auth)
        for section in page["sections"]:
            for item in section.get("items", [])[:4]:
                if any(item.get(key) for key in ("full", "preview", "thumbnail")):
                    items.setdefault(item["id"], item)
    if not items:
        raise APIError("no search returned an item with an image")
    return list(items.values())


def image_paths(items: list[dict]) -> tuple[list[list[str]], list[list[str]]]:
    """The signed /img (variant, signature, source) and /media (signature, source) paths in these items."""
    images, media = [], []
    for item in items:
        urls = [item.get(key, {}).get("url", "") for key in ("thumbnail", "preview", "full")]
        urls += [size.get("url", "") for size in item.get("sizes", [])]
        for url in urls:
            parts = url.split("/")
            if len(parts) == 5 and parts[1] == "img" and parts[2:] not in images:
                images.append(parts[2:])
        preview = item.get("mediaPreview", {}).get("url", "")
        parts = preview.split("/")
        if len(parts) == 4 and parts[1] == "media":
            media.append(parts[2:])
    return images, media


def add_items(client: Client, gallery: str, items: list[dict], auth: dict, count: int) -> list[str]:
    added = []
    for item in items:
        if len(added) == count:
            break
        body = {"item": item, "allowNearDuplicate": True}
        status, answer, _ = client.call(
            "POST", f"/api/galleries/{gallery}/items", body, auth=auth, expect=(201, 409, 415, 502, 504)
        )
        if status == 201:
            added.append(answer["id"])
    if not added:
        raise APIError(f"no search result could be added to gallery {gallery}")
    return added


def sign_in(client: Client, name: str) -> str:
    _, _, cookies = client.call("POST", "/api/session", {"name": name, "password": PASSWORD})
    for cookie in cookies:
        if cookie.startswith("tessera_session="):
            return cookie.split(";", 1)[0]
    raise APIError(f"signing in as {name} set no session cookie")


def session_auth(cookie: str) -> dict:
    return {"Cookie": cookie, "X-Tessera-Client": "fuzz"}


def make_token(client: Client, cookie: str, name: str, scope: str) -> dict:
    _, token, _ = client.call(
        "POST", "/api/tokens", {"name": name, "scope": scope}, auth=session_auth(cookie), expect=(201,)
    )
    return {"id": token["id"], "secret": token["secret"]}


def make_link(client: Client, gallery: str, auth: dict, kind: str, password: bool, show_items: bool) -> dict:
    body: dict = {"kind": kind}
    if password:
        body["password"] = LINK_PASSWORD
    if kind == "drop":
        body["showItems"] = show_items
    _, link, _ = client.call("POST", f"/api/galleries/{gallery}/links", body, auth=auth, expect=(201,))
    return {
        "id": link["id"],
        "slug": link["url"].rsplit("/", 1)[1],
        "kind": kind,
        "password": password,
        "showItems": show_items,
    }


LINK_KINDS = {
    "view": ("view", False, False),
    "viewLocked": ("view", True, False),
    "drop": ("drop", False, True),
    "dropLocked": ("drop", True, False),
    "spare": ("view", False, False),
}


def shared_images(client: Client, links: dict) -> list[list[str]]:
    """The /s/{slug}/img/… paths a view link's visitor is given, as (slug, variant, signature, source)."""
    paths = []
    for link in links.values():
        auth = {"X-Tessera-Link-Password": LINK_PASSWORD} if link["password"] else {}
        status, shared, _ = client.call("GET", f"/api/shared/{link['slug']}", auth=auth, expect=(200, 401, 404, 410, 429))
        if status != 200:
            continue
        for entry in shared.get("items", []):
            for image in entry.get("image", {}).values():
                parts = image.get("url", "").split("/")
                if len(parts) == 7 and parts[1] == "s" and parts[3] == "img":
                    paths.append([parts[2]] + parts[4:])
    return paths


def seed(url: str, auth_mode: str) -> dict:
    client = Client(url)
    fixtures: dict = {"url": url, "auth": auth_mode, "accounts": {}, "linkPassword": LINK_PASSWORD}
    owner: dict = {}
    if auth_mode == "accounts":
        for name in ACCOUNTS:
            cookie = sign_in(client, name)
            tokens = {"write": make_token(client, cookie, "fuzz write", "write")}
            if name == "owner":
                tokens["read"] = make_token(client, cookie, "fuzz read", "read")
                tokens["spare"] = make_token(client, cookie, "fuzz spare", "write")
            fixtures["accounts"][name] = {"session": cookie, "tokens": tokens}
        owner = bearer(fixtures["accounts"]["owner"]["tokens"]["write"]["secret"])
    fixtures["ownerAuth"] = owner
    items = search_items(client, owner)
    fixtures["searchItems"] = items[:12]
    fixtures["images"], fixtures["media"] = image_paths(items)
    fixtures["native"] = [item["id"].split(":", 1) for item in items if ":" in item["id"]]
    build_galleries(client, fixtures)
    fixtures["app"] = app_files(client, owner)
    return fixtures


def app_files(client: Client, auth: dict) -> list[list[str]]:
    """The web app's files the shell names (/app/{version}/{file}, /app/{version}/{folder}/{file})."""
    connection = client.connection()
    try:
        connection.request("GET", "/", headers=auth)
        page = connection.getresponse().read().decode("utf-8", "replace")
    finally:
        connection.close()
    paths = re.findall(r'"/app/([^"?#]+)"', page)
    return [path.split("/") for path in dict.fromkeys(paths) if 2 <= len(path.split("/")) <= 3]


def build_galleries(client: Client, fixtures: dict) -> None:
    """The gallery the fuzzer acts on (items, members, links) and one in Recently deleted."""
    owner = fixtures["ownerAuth"]
    items = fixtures["searchItems"]
    _, main, _ = client.call("POST", "/api/galleries", {"name": "Fuzzed"}, auth=owner, expect=(201,))
    _, trash, _ = client.call("POST", "/api/galleries", {"name": "Fuzzed, deleted"}, auth=owner, expect=(201,))
    fixtures["main"] = {"id": main["id"], "items": add_items(client, main["id"], items, owner, 4)}
    fixtures["deleted"] = {"id": trash["id"], "items": add_items(client, trash["id"], items[1:] + items[:1], owner, 1)}
    client.call("DELETE", f"/api/galleries/{trash['id']}", auth=owner)
    fixtures["links"], fixtures["shared"], fixtures["members"] = {}, [], []
    if fixtures["auth"] == "accounts":
        for name, role in (("editor", "editor"), ("viewer", "viewer")):
            client.call("POST", f"/api/galleries/{main['id']}/members", {"name": name, "role": role}, auth=owner)
            fixtures["members"].append(name)
        for key, (kind, password, show) in LINK_KINDS.items():
            fixtures["links"][key] = make_link(client, main["id"], owner, kind, password, show)
        fixtures["shared"] = shared_images(client, fixtures["links"])


def repair(fixtures: dict) -> None:
    """Puts back what fuzzed requests removed, keeping the same keys (the hooks read them for each request)."""
    client = Client(fixtures["url"])
    owner = fixtures["ownerAuth"]
    if fixtures["auth"] == "accounts":
        for name, account in fixtures["accounts"].items():
            status, _, _ = client.call("GET", "/api/tokens", auth=session_auth(account["session"]), expect=(200, 401))
            if status == 401:
                try:
                    account["session"] = sign_in(client, name)
                except APIError as error:  # locked out for now (429): the next repair tries again
                    print(f"fuzz-fixtures: could not sign {name} in again: {error}", file=sys.stderr)
                    continue
            for scope_key, token in list(account["tokens"].items()):
                status, _, _ = client.call("GET", "/api/me", auth=bearer(token["secret"]), expect=(200, 401))
                if status == 401:
                    scope = "read" if scope_key == "read" else "write"
                    account["tokens"][scope_key] = make_token(client, account["session"], f"fuzz {scope_key}", scope)
        if not owner or owner != bearer(fixtures["accounts"]["owner"]["tokens"]["write"]["secret"]):
            fixtures["ownerAuth"] = owner = bearer(fixtures["accounts"]["owner"]["tokens"]["write"]["secret"])
    main = fixtures["main"]["id"]
    status, gallery, _ = client.call("GET", f"/api/galleries/{main}", auth=owner, expect=(200, 404))
    if status == 404:
        fresh = dict(fixtures)
        build_galleries(client, fresh)
        fixtures.update(fresh)
        return
    if gallery.get("deletedAt"):
        client.call("POST", f"/api/galleries/{main}/restore", auth=owner)
    held = {entry["id"] for entry in gallery.get("items", [])}
    kept = [item for item in fixtures["main"]["items"] if item in held]
    if len(kept) < 2:
        kept += add_items(client, main, fixtures["searchItems"], owner, 2)
    fixtures["main"]["items"] = kept
    trash = fixtures["deleted"]["id"]
    status, gallery, _ = client.call("GET", f"/api/galleries/{trash}", auth=owner, expect=(200, 404))
    if status == 404:
        _, made, _ = client.call("POST", "/api/galleries", {"name": "Fuzzed, deleted"}, auth=owner, expect=(201,))
        fixtures["deleted"] = {"id": made["id"], "items": []}
        client.call("DELETE", f"/api/galleries/{made['id']}", auth=owner)
    elif not gallery.get("deletedAt"):
        client.call("DELETE", f"/api/galleries/{trash}", auth=owner, expect=(200, 409, 412))
    if fixtures["auth"] != "accounts":
        return
    _, members, _ = client.call("GET", f"/api/galleries/{main}/members", auth=owner)
    present = {member["name"] for member in members.get("members", [])}
    for name, role in (("editor", "editor"), ("viewer", "viewer")):
        if name not in present:
            client.call("POST", f"/api/galleries/{main}/members", {"name": name, "role": role}, auth=owner)
    _, listed, _ = client.call("GET", f"/api/galleries/{main}/links", auth=owner)
    alive = {link["id"] for link in listed.get("links", [])}
    changed = False
    for key, (kind, password, show) in LINK_KINDS.items():
        if fixtures["links"][key]["id"] not in alive:
            fixtures["links"][key] = make_link(client, main, owner, kind, password, show)
            changed = True
    if changed or not fixtures["shared"]:
        fixtures["shared"] = shared_images(client, fixtures["links"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["seed"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--auth", choices=["none", "accounts"], default="none")
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    try:
        fixtures = seed(arguments.url, arguments.auth)
    except (APIError, OSError, KeyError) as error:
        print(f"fuzz-fixtures: could not seed the server: {error}", file=sys.stderr)
        return 1
    with open(arguments.out, "w") as file:
        json.dump(fixtures, file, indent=1)
    print(
        f"fuzz-fixtures: gallery {fixtures['main']['id']} with {len(fixtures['main']['items'])} items, "
        f"{len(fixtures['images'])} image and {len(fixtures['media'])} media addresses, "
        f"{len(fixtures['links'])} links, {len(fixtures['accounts'])} accounts"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
