/// The user's own photo folders (issue 3, in progress).
public enum LocalLibraryPlaceholder {}
