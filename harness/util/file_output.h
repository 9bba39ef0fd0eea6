// Writing the tool's output files so that no failure passes unseen.
//
// A std::ofstream keeps its last buffer (8 KiB) until it closes, and a
// close that fails says so only in the stream's state. Code that checked the
// state before closing reported success for files a full disk had cut short:
// `sweep --configs-only` on a nearly full file system wrote an empty config
// and a truncated one, said "2 of 2 point configs written" and exited 0.
// Renaming a finished file into place was right, but renaming over a path
// that names no regular file is not: as root, `--out /dev/full` replaced the
// device node with a regular file, and a named pipe given as --out was
// replaced while its reader waited.
//
// Every function here throws std::runtime_error naming the file and the
// operating system's reason ("No space left on device") when any part of
// the write fails; none of them leaves a partial file behind.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string_view>

namespace dmbench {

// Writes what `write` puts into the stream to `file`, whole or not at all.
// The bytes go to FILE.partial beside it, which is renamed over FILE only
// when every byte has reached the file system; so a crash of the process or
// a full disk never leaves a truncated FILE that looks finished, and a FILE
// that was there keeps its old content when the write fails. Missing parent
// directories are created. Two cases differ:
//   - a FILE that exists and is not a regular file (a pipe, /dev/stdout,
//     /dev/null) is written in place, since renaming would replace the node;
//   - a symbolic link is followed: the file it names is replaced, the link
//     stays.
// `write` may throw; nothing is then renamed into place. The stream's state
// need not be checked by `write`: a failed write is found here.
void WriteFileWhole(const std::filesystem::path& file,
                    const std::function<void(std::ostream&)>& write);
void WriteFileWhole(const std::filesystem::path& file, std::string_view bytes);

// Throws what WriteFileWhole(file, ...) would for a reason known before any
// byte is written: no name, a directory, a directory that cannot be created
// (it creates missing ones, as WriteFileWhole would), or one in which no
// file can be made. A command calls it before a long run, rather than lose
// the run's result to a mistyped path at its end. A full disk can still
// fail the write later.
void CheckFileWritable(const std::filesystem::path& file);

// Whether WriteFileWhole writes `file` where it is rather than replacing
// it: `file` exists, links followed, and is neither a regular file nor a
// directory (a pipe, a device). Nothing can then be written beside it as
// FILE.SUFFIX.
bool WrittenInPlace(const std::filesystem::path& file);

// Whether `file` names the file this process's standard output writes to
// (`--out /dev/stdout`, or a file that standard output is redirected to):
// a command that prints a table then prints it to standard error, so that
// the file holds only what was asked for. False when either cannot be
// examined (no such file yet, standard output closed).
bool NamesStandardOutput(const std::filesystem::path& file);

}  // namespace dmbench
