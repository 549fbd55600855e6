/** Whether a process of this machine exists (it may belong to another user): whose temporary files are still in use. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    // EPERM: it exists but belongs to someone else.
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
}
