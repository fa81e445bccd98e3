import ArgumentParser

/// `tessera`: search free media services and your own photos, from a browser or a terminal.
@main
struct Tessera: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Search free media services and your own photo folders; collect what you find.",
        subcommands: [
            Serve.self, Search.self, Library.self, GalleryCommand.self, UserCommand.self, BackupCommand.self,
            RestoreCommand.self, MigrateCommand.self,
        ])
}
