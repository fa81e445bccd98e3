/// Who may do what: every operation of docs/openapi.yaml, asked by every kind of caller, and the status each
/// must answer (docs/accounts.md, "Who may do what"). `AccessMatrixTests` sends each request and compares;
/// an operation of the document without a row here, or a row for none, fails it.
///
/// Each row is one request, valid apart from who sends it: real ids (a gallery with an item, its links, the
/// owner's tokens), so only the caller varies. The columns, in order:
///
/// - accounts mode (`TESSERA_AUTH=accounts`): `none` no credentials; `wrong` a bearer token nobody was given;
///   `read`/`full` the owner's personal access tokens; `owner`, `editor`, `viewer` sessions of the gallery's
///   owner and members; `stranger` another account; `admin` an admin who is no member; then visitors holding
///   a link and nothing else: `view` (no password), `pw+`/`pw-` a view link with a password, sent or not,
///   `expired`, `revoked`, `drop`. Routes under `/s/{slug}` and `/api/shared/{slug}` take the visitor's own
///   link, and the `view` link for every other caller (a link is its own credential).
/// - token mode (`TESSERA_AUTH=token`): no credentials, a wrong token, the server's token.
/// - local mode (`none`): anyone.
///
/// A cell is a status, or a class (`2xx`). Several rows may test one operation (labelled after the path).
enum AccessMatrix {
    enum Caller: String, Sendable, CaseIterable {
        case none, wrong, read, full, owner, editor, viewer, stranger, admin
        case view, passwordGiven = "pw+", passwordMissing = "pw-", expired, revoked, drop
        case token

        /// A visitor with a link and no account.
        var isVisitor: Bool { [.view, .passwordGiven, .passwordMissing, .expired, .revoked, .drop].contains(self) }
        var hasSession: Bool { [.owner, .editor, .viewer, .stranger, .admin].contains(self) }
    }

    enum Mode: String, Sendable, CaseIterable {
        case accounts, token, local

        var callers: [Caller] {
            switch self {
            case .accounts: Caller.allCases.filter { $0 != .token }
            case .token: [.none, .wrong, .token]
            case .local: [.none]
            }
        }
    }

    struct Row: Sendable {
        /// `"GET /api/galleries/{}"` as `OpenAPIDocumentTests.normalize` writes it, and an optional label.
        let operation: String
        let label: String
        let cells: [Mode: [String]]

        var name: String { label.isEmpty ? operation : "\(operation) [\(label)]" }

        init(_ operation: String, _ accounts: String, token: String, local: String) {
            self.init(operation, "", accounts, token: token, local: local)
        }

        init(_ operation: String, _ label: String, _ accounts: String, token: String, local: String) {
            self.operation = operation
            self.label = label
            func split(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
            cells = [.accounts: split(accounts), .token: split(token), .local: split(local)]
        }
    }

    // Shared rows, spelled once: they are the rules most operations follow.
    //                     none wrng read full ownr edtr view strg admn view pw+  pw-  expd revk drop
    static let signedIn = "401  401  200  200  200  200  200  200  200  401  401  401  401  401  401"
    static let member = "401  401  200  200  200  200  200  404  404  401  401  401  401  401  401"
    static let editing = "401  401  403  200  200  200  403  404  404  401  401  401  401  401  401"
    static let owning = "401  401  403  200  200  403  403  404  404  401  401  401  401  401  401"
    static let page = "303  401  200  200  200  200  200  200  200  303  303  303  303  303  303"
    static let open = "200  200  200  200  200  200  200  200  200  200  200  200  200  200  200"
    static let linkOnly = "401 401 404"

    static let rows: [Row] = [
        // Open to everyone: balancers, this machine's metrics, the sign-in page and the app's files.
        Row("GET /api/health", open, token: "200 200 200", local: "200"),
        Row("GET /metrics", open, token: "200 200 200", local: "200"),
        Row("GET /login", open, token: "401 401 303", local: "303"),
        Row("GET /app/{}", open, token: "401 401 200", local: "200"),
        Row("GET /app/{}/{}", open, token: "401 401 200", local: "200"),
        Row("GET /app/{}/{}/{}", open, token: "401 401 200", local: "200"),
        // The app's pages carry no data (the API does): any account; without one, the sign-in page.
        Row("GET /", page, token: "401 401 200", local: "200"),
        Row("GET /search", page, token: "401 401 200", local: "200"),
        Row("GET /item/{}/{}", page, token: "401 401 200", local: "200"),
        Row("GET /galleries", page, token: "401 401 200", local: "200"),
        Row("GET /galleries/{}", page, token: "401 401 200", local: "200"),
        // Searching and the services' items: any account, any token scope.
        Row("GET /api/sources", signedIn, token: "401 401 200", local: "200"),
        Row("GET /api/search", signedIn, token: "401 401 200", local: "200"),
        Row("GET /api/search/stream", signedIn, token: "401 401 200", local: "200"),
        Row("GET /api/items/{}/{}", signedIn, token: "401 401 200", local: "200"),
        Row("GET /api/items/galleries", signedIn, token: "401 401 200", local: "200"),
        Row("GET /img/{}/{}/{}", "a search result's image", signedIn, token: "401 401 200", local: "200"),
        Row("GET /media/{}/{}", "a search result's preview", signedIn, token: "401 401 200", local: "200"),
        Row("HEAD /media/{}/{}", "a search result's preview", signedIn, token: "401 401 200", local: "200"),
        // A gallery's stored copy: those who may read a gallery holding it; for others it does not exist.
        Row("GET /img/{}/{}/{}", "the gallery's stored copy", member, token: "401 401 200", local: "200"),
        Row("HEAD /img/{}/{}/{}", "the gallery's stored copy", member, token: "401 401 200", local: "200"),
        Row(
            "GET /img/{}/{}/{}", "the stored copy, cached by the owner's request", member, token: "401 401 200",
            local: "200"),
        // Accounts, sessions and tokens (they exist only with accounts: `accounts_off` without).
        Row("GET /api/me", signedIn, token: "401 401 200", local: "200"),
        Row(
            "POST /api/session", "signing in as another account", open, token: "401 401 404", local: "404"),
        // Signing out with a token ends no session (a token is not one); everywhere, every session of its
        // account, which a `write` token may do as it may delete the account's galleries. Tokens stay.
        Row(
            "DELETE /api/session",
            "401  401  403  204  204  204  204  204  204  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        Row(
            "DELETE /api/sessions",
            "401  401  403  204  204  204  204  204  204  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        // Listed (names and scopes, never a secret) with any credential; made and revoked with a session only.
        Row("GET /api/tokens", signedIn, token: "401 401 404", local: "404"),
        Row(
            "POST /api/tokens",
            "401  401  403  403  201  201  201  201  201  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        Row(
            "DELETE /api/tokens/{}", "the owner's token",
            "401  401  403  403  204  404  404  404  404  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        // Galleries: the roles of docs/accounts.md, "Owners and collaborators".
        Row("GET /api/galleries", signedIn, token: "401 401 200", local: "200"),
        Row(
            "POST /api/galleries",
            "401  401  403  201  201  201  201  201  201  401  401  401  401  401  401", token: "401 401 201",
            local: "201"),
        Row("GET /api/galleries/{}", member, token: "401 401 200", local: "200"),
        Row("PATCH /api/galleries/{}", "renaming", editing, token: "401 401 200", local: "200"),
        Row("DELETE /api/galleries/{}", "to Recently deleted", owning, token: "401 401 200", local: "200"),
        // A gallery in Recently deleted is its owner's alone: members get 404 meanwhile.
        Row(
            "DELETE /api/galleries/{}", "for good, from Recently deleted",
            "401  401  403  204  204  404  404  404  404  401  401  401  401  401  401", token: "401 401 204",
            local: "204"),
        Row(
            "POST /api/galleries/{}/restore",
            "401  401  403  200  200  404  404  404  404  401  401  401  401  401  401", token: "401 401 200",
            local: "200"),
        Row(
            "POST /api/galleries/{}/items", "an upload",
            "401  401  403  201  201  201  403  404  404  401  401  401  401  401  401", token: "401 401 201",
            local: "201"),
        Row("DELETE /api/galleries/{}/items/{}", editing, token: "401 401 200", local: "200"),
        Row("POST /api/galleries/{}/items/{}/move", editing, token: "401 401 200", local: "200"),
        Row("GET /api/galleries/{}/events", "status and headers only", member, token: "401 401 200", local: "200"),
        Row("GET /api/galleries/{}/export", member, token: "401 401 200", local: "200"),
        Row("GET /api/galleries/{}/credits", member, token: "401 401 200", local: "200"),
        Row("GET /api/galleries/{}/members", member, token: "401 401 404", local: "404"),
        Row("POST /api/galleries/{}/members", "adding a fourth account", owning, token: "401 401 404", local: "404"),
        Row(
            "DELETE /api/galleries/{}/members/{}",
            "401  401  403  204  204  403  403  404  404  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        // Links: the owner's alone (docs/accounts.md, "Public and drop links").
        Row(
            "GET /api/galleries/{}/links",
            "401  401  200  200  200  403  403  404  404  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        Row(
            "POST /api/galleries/{}/links",
            "401  401  403  201  201  403  403  404  404  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        // A link's id is shown to its owner alone: for anyone else it does not exist.
        Row(
            "DELETE /api/links/{}",
            "401  401  403  204  204  404  404  404  404  401  401  401  401  401  401", token: "401 401 404",
            local: "404"),
        // What a link opens: the link is the credential, whoever else the caller is.
        Row(
            "GET /s/{}",
            "200  200  200  200  200  200  200  200  200  200  200  200  410  404  200", token: linkOnly,
            local: "404"),
        Row(
            "GET /s/{}/img/{}/{}/{}", "the gallery's stored copy",
            "200  200  200  200  200  200  200  200  200  200  200  401  410  404  404", token: linkOnly,
            local: "404"),
        Row(
            "HEAD /s/{}/img/{}/{}/{}", "the gallery's stored copy",
            "200  200  200  200  200  200  200  200  200  200  200  401  410  404  404", token: linkOnly,
            local: "404"),
        Row(
            "GET /s/{}/img/{}/{}/{}", "a search result's image",
            "404  404  404  404  404  404  404  404  404  404  404  401  410  404  404", token: linkOnly,
            local: "404"),
        Row(
            "GET /api/shared/{}",
            "200  200  200  200  200  200  200  200  200  200  200  401  410  404  200", token: linkOnly,
            local: "404"),
        Row(
            "POST /api/shared/{}/unlock", "pw- sends a wrong password",
            "204  204  204  204  204  204  204  204  204  204  204  401  410  404  204", token: linkOnly,
            local: "404"),
        Row(
            "GET /api/shared/{}/credits",
            "200  200  200  200  200  200  200  200  200  200  200  401  410  404  403", token: linkOnly,
            local: "404"),
        Row(
            "POST /api/shared/{}/items", "an upload",
            "403  403  403  403  403  403  403  403  403  403  403  401  410  404  201", token: linkOnly,
            local: "404"),
    ]
}
