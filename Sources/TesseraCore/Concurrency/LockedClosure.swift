import Synchronization

/// A closure that can be replaced while others call it: a `Mutex` holding a reference to it.
///
/// Not `Mutex<(A) -> R>`: reading a function value out of the `Mutex`'s generic storage with `withLock { $0 }`
/// converts it to and from the generic form and writes the converted one back, so every read wraps the
/// stored closure in two more reabstraction thunks. Read once per event, that made each call slower than the
/// last and would have overflowed the stack after enough events. A class instance is not converted.
public final class LockedClosure<Function: Sendable>: Sendable {
    private final class Holder: Sendable {
        let function: Function
        init(_ function: Function) { self.function = function }
    }

    private let holder: Mutex<Holder>

    public init(_ function: Function) {
        holder = Mutex(Holder(function))
    }

    /// The closure now (set it to replace it).
    public var function: Function {
        get { holder.withLock { $0 }.function }
        set {
            let replacement = Holder(newValue)
            holder.withLock { $0 = replacement }
        }
    }
}
