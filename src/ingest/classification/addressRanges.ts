/**
 * A set of address ranges of one family, sorted and merged so that membership is one binary
 * search. Addresses are `width` 32-bit words (1 for IPv4, 4 for IPv6); starts and ends are kept
 * flat in typed arrays so the set is compact and can be written to and read from a cache file as is.
 */
export class AddressRanges {
  private constructor(
    readonly width: number,
    readonly starts: Uint32Array,
    readonly ends: Uint32Array,
  ) {}

  /** Adopts arrays that are already sorted and merged (as `build` or a cache file made them). */
  static fromSorted(width: number, starts: Uint32Array, ends: Uint32Array): AddressRanges {
    if (starts.length !== ends.length || starts.length % width !== 0) {
      throw new Error('Address range arrays have inconsistent lengths.');
    }
    return new AddressRanges(width, starts, ends);
  }

  /** Sorts and merges ranges given as flat start and end word arrays (range i at i·width). */
  static build(width: number, starts: ArrayLike<number>, ends: ArrayLike<number>): AddressRanges {
    const count = starts.length / width;
    const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => compareAt(starts, a, starts, b, width));
    const mergedStarts: number[] = [];
    const mergedEnds: number[] = [];
    for (const range of order) {
      const last = mergedStarts.length / width - 1;
      if (last >= 0 && compareAt(starts, range, mergedEnds, last, width) <= 0) {
        if (compareAt(ends, range, mergedEnds, last, width) > 0) copyWords(ends, range, mergedEnds, last, width);
      } else {
        for (let w = 0; w < width; w++) {
          mergedStarts.push(starts[range * width + w] ?? 0);
          mergedEnds.push(ends[range * width + w] ?? 0);
        }
      }
    }
    return new AddressRanges(width, Uint32Array.from(mergedStarts), Uint32Array.from(mergedEnds));
  }

  /** Both sets' ranges in one set. */
  union(other: AddressRanges): AddressRanges {
    if (other.count === 0) return this;
    if (this.count === 0) return other;
    return AddressRanges.build(this.width, [...this.starts, ...other.starts], [...this.ends, ...other.ends]);
  }

  get count(): number {
    return this.starts.length / this.width;
  }

  /** Whether the address (`width` words) lies in a range: the last range starting at or before it must end at or after it. */
  contains(address: ArrayLike<number>): boolean {
    let low = 0;
    let high = this.count - 1;
    let candidate = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (compareAt(this.starts, middle, address, 0, this.width) <= 0) {
        candidate = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return candidate >= 0 && compareAt(address, 0, this.ends, candidate, this.width) <= 0;
  }
}

/** Compares the address at index `i` of `a` with the one at index `j` of `b`, word by word. */
function compareAt(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number, width: number): number {
  for (let w = 0; w < width; w++) {
    const difference = (a[i * width + w] ?? 0) - (b[j * width + w] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function copyWords(from: ArrayLike<number>, i: number, to: number[], j: number, width: number): void {
  for (let w = 0; w < width; w++) to[j * width + w] = from[i * width + w] ?? 0;
}
