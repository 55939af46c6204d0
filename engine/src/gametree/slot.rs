//! The children list's `unsafe`: children written straight into the
//! list's spare slots. A `Child` (152 bytes) pushed as a value is a call of
//! `memcpy`; here the move is written and the position copied in two parts
//! of at most 128 bytes, which the compiler copies inline.
//!
//! What the safe forms cost (`choro bench`, whole process, callgrind,
//! issue 27): `Vec::push` of each child, 3.3% (Adjiboto) to 5.9%
//! (Didinga) more instructions; Adjiboto's children built in the list's
//! last slot with pushes and pops, 3.1% of Adjiboto. Each is over the 2%
//! that `unsafe` must pay.

use super::Child;
use crate::board::Position;
use crate::rules::{adjiboto, MoveInfo};
use crate::types::moves::Move;
use std::ptr::{addr_of_mut, copy_nonoverlapping};

/// Write `src` to `dst` in two parts of at most 128 bytes, each of which
/// the compiler copies in place.
///
/// # Safety
/// `dst` must be valid for writes of a `Position` and apart from `src`.
#[inline(always)]
unsafe fn write_position(src: &Position, dst: *mut Position) {
    const SIZE: usize = std::mem::size_of::<Position>();
    const HEAD: usize = if SIZE > 128 { 128 } else { SIZE };
    let src = (src as *const Position).cast::<u8>();
    let dst = dst.cast::<u8>();
    // SAFETY: the two parts cover the `SIZE` bytes exactly; the caller
    // makes `dst` valid and apart from `src`; a byte copy of a `Copy` value
    // is that value.
    unsafe {
        copy_nonoverlapping(src, dst, HEAD);
        copy_nonoverlapping(src.add(HEAD), dst.add(HEAD), SIZE - HEAD);
    }
}

/// Write the child `p` reached by `m` to `slot`, field by field.
///
/// # Safety
/// `slot` must be valid for writes of a `Child` and apart from `m` and `p`.
#[inline(always)]
unsafe fn write_child(slot: *mut Child, m: &Move, p: &Position) {
    // SAFETY: as the caller promises.
    unsafe {
        addr_of_mut!((*slot).mv).write(*m);
        write_position(p, addr_of_mut!((*slot).pos));
    }
}

/// Push the child `pos` reached by `mv` onto `buf`, as `buf.push(Child {
/// mv: *mv, pos: *pos })` does but without a `memcpy` call.
#[inline(always)]
pub(super) fn push_child(buf: &mut Vec<Child>, mv: &Move, pos: &Position) {
    buf.reserve(1);
    let n = buf.len();
    // SAFETY: slot `n` is the first spare slot of `buf` (room made above),
    // apart from `mv` and `pos`, which `&mut buf` rules out of it; it is
    // written in full before the length counts it.
    unsafe {
        write_child(buf.as_mut_ptr().add(n), mv, pos);
        buf.set_len(n + 1);
    }
}

/// Adjiboto's children of `pos` into `buf` (empty), each built in its list
/// slot, merged as `push_new` merges them.
#[inline(always)]
pub(super) fn adjiboto_children(pos: &Position, buf: &mut Vec<Child>) {
    buf.reserve(5);
    let mut out = InList {
        parent: pos,
        base: buf.as_mut_ptr(),
        len: 0,
        room: buf.capacity(),
        seen: 0,
    };
    adjiboto::generate_into(pos, &mut out);
    // SAFETY: the first `out.len` slots hold whole children.
    unsafe { buf.set_len(out.len) };
}

/// [`adjiboto::ChildOut`] for [`adjiboto_children`]: each child is built
/// in the list's next slot (a copy of the parent that the generator
/// rewrites), and counted unless an earlier child has the same state, as
/// `push_new` keeps them (the hashes scanned only when bit `h >> 58` of
/// `seen` says one may match); `len` children are kept, at `base`, where
/// the list has room for every move.
struct InList<'a> {
    parent: &'a Position,
    base: *mut Child,
    len: usize,
    room: usize,
    seen: u64,
}

impl adjiboto::ChildOut for InList<'_> {
    const FRESH: bool = true;
    #[inline(always)]
    fn slot(&mut self) -> &mut Position {
        assert!(self.len < self.room);
        // SAFETY: slot `len` is the list's spare capacity, apart from the
        // parent (which is not in this list); its position is written in
        // full before the reference to it is made.
        unsafe {
            let pos = addr_of_mut!((*self.base.add(self.len)).pos);
            write_position(self.parent, pos);
            &mut *pos
        }
    }

    #[inline(always)]
    fn made(&mut self, mv: &Move, _: MoveInfo) -> bool {
        let n = self.len;
        // SAFETY: slots below `n` hold whole children; slot `n`'s position
        // was written by `slot` and its move is written here.
        unsafe {
            let slot = self.base.add(n);
            let p = &(*slot).pos;
            let h = p.hash();
            let bit = 1u64 << (h >> 58);
            if self.seen & bit != 0
                && (0..n).any(|j| {
                    let c = &(*self.base.add(j)).pos;
                    c.hash() == h && c.same_state(p)
                })
            {
                return true;
            }
            self.seen |= bit;
            addr_of_mut!((*slot).mv).write(*mv);
        }
        self.len = n + 1;
        true
    }
}
