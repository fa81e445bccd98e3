import Metrics

/// The database's figures for `/metrics`, behind calls any engine can make: SQLite's one writer reports
/// through `AppDatabase.write`; a pooled engine (PostgreSQL) calls the same methods around its checkouts
/// and transactions, so both fill the same series, told apart by `engine` (`sqlite`, `postgresql`): a server
/// on PostgreSQL still keeps its photo library's index in SQLite.
///
/// - `tessera_db_pool_in_use`: connections held for a transaction now (SQLite: the writer, 0 or 1).
/// - `tessera_db_pool_waits_total`: transactions that had to wait for a connection held by another.
/// - `tessera_db_pool_wait_seconds`: time from asking for a connection to having it.
/// - `tessera_db_write_transactions_total{result}`: write transactions, `committed` or `failed`.
/// - `tessera_db_write_transaction_seconds`: a write transaction's time once it had its connection.
public struct DatabaseMetrics: Sendable {
    private let inUse: Meter
    private let waits: Counter
    private let waitTime: Metrics.Timer
    private let committed: Counter
    private let failed: Counter
    private let transactionTime: Metrics.Timer

    public init(factory: any MetricsFactory, engine: String = "sqlite") {
        let engine = [("engine", engine)]
        inUse = Meter(label: "tessera_db_pool_in_use", dimensions: engine, factory: factory)
        waits = Counter(label: "tessera_db_pool_waits_total", dimensions: engine, factory: factory)
        waitTime = Metrics.Timer(label: "tessera_db_pool_wait_seconds", dimensions: engine, factory: factory)
        committed = Counter(
            label: "tessera_db_write_transactions_total", dimensions: engine + [("result", "committed")],
            factory: factory)
        failed = Counter(
            label: "tessera_db_write_transactions_total", dimensions: engine + [("result", "failed")],
            factory: factory)
        transactionTime = Metrics.Timer(
            label: "tessera_db_write_transaction_seconds", dimensions: engine, factory: factory)
    }

    /// Counts nothing: databases opened outside an app (tests of one store, benchmarks).
    public static let disabled = DatabaseMetrics(factory: NOOPMetricsHandler.instance)

    /// A connection was taken after `waited`; `queued` when another transaction held it (or all of them).
    public func connectionTaken(waited: Duration, queued: Bool) {
        inUse.increment()
        if queued { waits.increment() }
        waitTime.record(duration: waited)
    }

    /// The connection taken last was given back.
    public func connectionReturned() {
        inUse.decrement()
    }

    /// A write transaction ended: committed after `duration` (from having its connection), or failed.
    public func writeTransaction(took duration: Duration, committed didCommit: Bool) {
        if didCommit {
            committed.increment()
            transactionTime.record(duration: duration)
        } else {
            failed.increment()
        }
    }
}
