#if canImport(Glibc)
import Glibc
#endif

extension InputFile {
    /// What stands at `path` when it is not a regular file Habitat can read — missing, a folder, a named pipe, a
    /// socket, a device — in `InputFile`'s words (issue 40: a `kpis.csv` that is a FIFO is a FIFO, not "missing");
    /// nil for a regular file (symbolic links followed). Only the type is looked at: nothing is opened.
    public static func typeProblem(at path: String) -> Problem? {
        var st = stat()
        guard stat(path, &st) == 0 else { return problemOpening(errno) }
        do { try checkType(st.st_mode) } catch { return error }
        return nil
    }
}
