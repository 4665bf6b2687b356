// A stand-in for the WebAssembly core (gpufleet_core.mjs) that stages texts as wasm/bindings.cpp
// does: stage() adds a text to one list shared by every build, create() takes the whole list (0
// when it holds fewer than three texts). Its analyzer answers any request with the texts it was
// built from, so a test sees exactly which files a build used. `faults.stageFailsAt` makes the
// stage() call of that index (counted from 0 over the module's life) throw, as a module that
// cannot grow its memory would.
export const faults = { stageFailsAt: -1 };
const utf8 = new TextDecoder();
const utf8In = new TextEncoder();

export default async function createGpufleetCore() {
  let staged = [];
  let stages = 0;
  let next = 1;
  const doors = new Map();
  return {
    HEAP8: new Int8Array(16),
    /** What is staged now, as text (not in the real core: for the tests' eyes). */
    staged: () => staged.map((b) => utf8.decode(b)),
    stage(size) {
      if (stages++ === faults.stageFailsAt) throw new RangeError('stand-in: cannot grow memory');
      const bytes = new Uint8Array(size);
      staged.push(bytes);
      return bytes;
    },
    create() {
      const texts = staged;
      staged = [];
      if (texts.length < 3) return 0;
      doors.set(next, { texts: texts.map((b) => utf8.decode(b)), request: new Uint8Array(0) });
      return next++;
    },
    request(door, size) {
      doors.get(door).request = new Uint8Array(size);
      return doors.get(door).request;
    },
    analyze(door) {
      return utf8In.encode(JSON.stringify({ ok: true, question: 'texts', result: doors.get(door).texts }));
    },
    destroy(door) { doors.delete(door); },
  };
}
