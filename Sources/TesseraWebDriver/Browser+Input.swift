/// The code points WebDriver reads as special keys, for `Element.sendKeys` and `Browser.pressKeys`.
public enum Key {
    public static let backspace = "\u{E003}"
    public static let tab = "\u{E004}"
    public static let enter = "\u{E007}"
    public static let shift = "\u{E008}"
    public static let control = "\u{E009}"
    public static let alt = "\u{E00A}"
    public static let escape = "\u{E00C}"
    public static let space = "\u{E00D}"
    public static let pageUp = "\u{E00E}"
    public static let pageDown = "\u{E00F}"
    public static let end = "\u{E010}"
    public static let home = "\u{E011}"
    public static let left = "\u{E012}"
    public static let up = "\u{E013}"
    public static let right = "\u{E014}"
    public static let down = "\u{E015}"
    public static let delete = "\u{E017}"
}

/// Keyboard, mouse, touch and wheel input through W3C Actions: real input events, where `click()` and `sendKeys`
/// only cover the common cases.
extension Browser {
    /// Presses and releases each character of `keys` in turn on the focused element.
    public func pressKeys(_ keys: String) async throws {
        let strokes: [JSONValue] = keys.flatMap { key -> [JSONValue] in
            [["type": "keyDown", "value": .string(String(key))], ["type": "keyUp", "value": .string(String(key))]]
        }
        try await perform(["type": "key", "id": "keyboard", "actions": .array(strokes)])
    }

    /// A right click on the element's centre: fires `contextmenu`.
    public func contextClick(on element: Element) async throws {
        try await perform(pointer("mouse", on: element, [press(button: 2), release(button: 2)]))
    }

    public func doubleClick(on element: Element) async throws {
        try await perform(pointer("mouse", on: element, [press(), release(), press(), release()]))
    }

    /// A finger held on the element's centre for `duration`, then lifted.
    public func longPress(on element: Element, duration: Duration = .seconds(1)) async throws {
        let hold: JSONValue = ["type": "pause", "duration": JSONValue(duration.milliseconds)]
        try await perform(pointer("touch", on: element, [press(), hold, release()]))
    }

    /// One tap of a finger on the element's centre.
    public func tap(on element: Element) async throws {
        try await perform(pointer("touch", on: element, [press(), release()]))
    }

    /// Two quick taps of a finger on the element's centre.
    public func doubleTap(on element: Element) async throws {
        let gap: JSONValue = ["type": "pause", "duration": 60]
        try await perform(pointer("touch", on: element, [press(), release(), gap, press(), release()]))
    }

    /// A finger put down on the element's centre, moved `dx` points sideways over a fifth of a second, lifted.
    public func swipe(on element: Element, dx: Int) async throws {
        let move: JSONValue = [
            "type": "pointerMove", "origin": "pointer", "x": JSONValue(dx), "y": 0, "duration": 200,
        ]
        try await perform(pointer("touch", on: element, [press(), move, release()]))
    }

    /// Turns the mouse wheel over the element's centre; a positive `deltaY` scrolls down.
    public func wheel(on element: Element, deltaY: Int) async throws {
        let scroll: JSONValue = [
            "type": "scroll", "origin": element.json, "x": 0, "y": 0, "deltaX": 0, "deltaY": JSONValue(deltaY),
        ]
        try await perform(["type": "wheel", "id": "wheel", "actions": [scroll]])
    }

    /// Releases every key and button that actions left pressed.
    public func releaseActions() async throws { _ = try await session.delete("actions") }

    // MARK: - Building action sequences

    private func perform(_ source: JSONValue) async throws {
        _ = try await session.post("actions", ["actions": [source]])
    }

    /// A pointer input source (`kind` "mouse" or "touch") that moves to the element's centre and then does `steps`.
    /// Each kind keeps its own source id: W3C refuses an id reused with another pointer type in one session.
    private func pointer(_ kind: String, on element: Element, _ steps: [JSONValue]) -> JSONValue {
        let move: JSONValue = ["type": "pointerMove", "origin": element.json, "x": 0, "y": 0]
        return [
            "type": "pointer", "id": .string(kind), "parameters": ["pointerType": .string(kind)],
            "actions": .array([move] + steps),
        ]
    }

    private func press(button: Int = 0) -> JSONValue { ["type": "pointerDown", "button": JSONValue(button)] }
    private func release(button: Int = 0) -> JSONValue { ["type": "pointerUp", "button": JSONValue(button)] }
}

extension Duration {
    fileprivate var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
