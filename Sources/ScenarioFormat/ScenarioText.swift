import Foundation
import RulesCore

/// Reading a scenario (or a CSV it names) as text, with errors that say what the file is and what is wrong with
/// it: not found, a folder or a device, too large, binary, or not UTF-8 (with the line and column of the first bad
/// byte), or UTF-16 (named as such). UTF-8 is read with or without a byte-order mark.
public enum ScenarioText {
    /// A file that cannot be read as text, in words.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The largest scenario file read.
    public static let maxBytes = InputLimits.scenario

    /// The file's text (`InputFile.text`: a regular UTF-8 file, refused in words otherwise).
    public static func read(_ path: String, maxBytes: Int = ScenarioText.maxBytes) throws(Problem) -> String {
        do { return try InputFile.text(path, maxBytes: maxBytes, binaryHint: "a scenario is YAML text") } catch {
            throw Problem(description: error.description)
        }
    }

    /// Text from UTF-8 bytes (a leading byte-order mark dropped).
    public static func decode(_ data: Data) throws(Problem) -> String {
        do { return try InputFile.decode([UInt8](data), binaryHint: "a scenario is YAML text") } catch {
            throw Problem(description: error.description)
        }
    }
}
