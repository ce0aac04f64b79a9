import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Fresh, empty folders under the system's temporary directory, one per test, so tests never share paths.
public enum TemporaryDirectory {
    /// Creates a new empty folder `<tmp>/<prefix>-<UUID>` and returns its URL. The folder is left in place (tests
    /// that inspect it after a failure can); use `withTemporaryDirectory` to have it removed.
    /// - Parameter prefix: names what the folder is for (e.g. `habitat-cli`); shows in the path of a failing test.
    public static func make(prefix: String = "habitat-test") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create a temporary folder at \(url.path): \(error)")
        }
        return url
    }

    /// A path for a new file `<tmp>/<prefix>-<UUID><suffix>` that does not exist yet (nothing is created).
    public static func filePath(prefix: String = "habitat-test", suffix: String = "") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }
}

/// Runs `body` with a new empty temporary folder (`TemporaryDirectory.make(prefix:)`) and removes the folder and
/// everything in it afterwards, whether `body` returns or throws.
public func withTemporaryDirectory<T>(prefix: String = "habitat-test", _ body: (URL) throws -> T) rethrows -> T {
    let url = TemporaryDirectory.make(prefix: prefix)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Makes (or extends) a sparse file of `bytes` bytes at `path` — a huge input that costs no disk, for tests that a
/// reader refuses it from its size without reading it. Returns whether the file has that size.
@discardableResult
public func makeSparseFile(_ path: String, bytes: Int) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return ftruncate(fd, off_t(bytes)) == 0
}
