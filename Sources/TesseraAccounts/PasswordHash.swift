import HummingbirdBcrypt

/// bcrypt through hummingbird-auth's `HummingbirdBcrypt`: the one place passwords are hashed and checked.
/// Both block for the hash's whole time; `AccountService` calls them on its own threads.
public enum PasswordHash {
    public static func make(_ password: String, cost: Int) -> String {
        Bcrypt.hash(password, cost: UInt8(clamping: cost))
    }

    public static func verify(_ password: String, against hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }
}
