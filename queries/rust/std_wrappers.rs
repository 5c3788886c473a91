//! Rust's std as tether reads it: the methods of the std types that hold values of one element
//! type `T` (`Option`, `Result`, `Vec` and the other sequences, `HashMap` and the other maps,
//! iterators, smart pointers, `Pin`, futures, `Poll`), written as Rust signatures and read once
//! by `crates/resolve/src/rust_std_wrappers.rs`. Which type names are such containers is
//! `container_types.txt`; this file says what their methods are and give.
//!
//! A method listed on a type is std's: a call of it is a call into std, never a guess at a
//! project method of that name. A name not listed stays unresolved (an extension trait of the
//! project or a dependency may define it).
//!
//! What is read (anything else is rejected when the file loads, naming the line):
//! - `impl<T> Option<T> {` … `}`: the type's own methods. The type is one of `Option`,
//!   `Result`, `Vec` (every sequence), `HashMap` (every map: `impl<K, T> HashMap<K, T>`),
//!   `Iterator`, `Box`, `Rc`, `Arc`, `Pin`, `Future`, `Poll`; `T` stands where the element is.
//! - `trait Name<T> {` … `}` and `impl<T> Name<T> for Option<T> {}`: methods several types
//!   share. A type's own method of the same name comes first; two traits of one type may not
//!   both list a name.
//! - `#[extension]` before a trait: methods a crate's extension trait adds (itertools). Their
//!   closures are read; the methods are not taken as std's (the crate may not be in use).
//! - One `fn` per line, ending in `;`. A result that holds the element is followed: `T`,
//!   `Self`, `Option<T>`, `Result<T, E>`, `Vec<T>`, `Pin<T>`, `impl Iterator<Item = T>`,
//!   a pair `(usize, T)` or `(&K, &T)`; `where T: ProjectType` follows it only when the element
//!   is a project type. A result that does not mention `T` (or no result) is not followed. A
//!   closure parameter `impl FnMut(&T, …)` says which of the closure's parameters get the
//!   element.

/// Every container's methods through `Clone`, `PartialEq`, `Debug`, `Into`, `Borrow`, `AsRef`…
/// (what they give is a type's own business: listed there when followed).
trait Common<T> {
    fn clone(&self);
    fn clone_from(&mut self, source: &Self);
    fn to_owned(&self);
    fn eq(&self, other: &Self) -> bool;
    fn ne(&self, other: &Self) -> bool;
    fn cmp(&self, other: &Self) -> Ordering;
    fn partial_cmp(&self, other: &Self) -> Option<Ordering>;
    fn hash(&self, state: &mut H);
    fn fmt(&self, f: &mut Formatter) -> fmt::Result;
    fn into(self);
    fn try_into(self);
    fn borrow(&self);
    fn borrow_mut(&mut self);
    fn as_ref(&self);
    fn as_mut(&mut self);
    fn default();
}

impl<T> Common<T> for Option<T> {}
impl<T, E> Common<T> for Result<T, E> {}
impl<T> Common<T> for Vec<T> {}
impl<K, T> Common<T> for HashMap<K, T> {}
impl<T> Common<T> for Iterator<T> {}
impl<T> Common<T> for Pin<T> {}
impl<T> Common<T> for Future<T> {}
impl<T> Common<T> for Poll<T> {}

impl<T> Option<T> {
    fn is_some(&self) -> bool;
    fn is_some_and(self, f: impl FnOnce(T) -> bool) -> bool;
    fn is_none(&self) -> bool;
    fn is_none_or(self, f: impl FnOnce(T) -> bool) -> bool;
    fn as_ref(&self) -> Option<&T>;
    fn as_mut(&mut self) -> Option<&mut T>;
    fn as_deref(&self) -> Option<&T>;
    fn as_deref_mut(&mut self) -> Option<&mut T>;
    fn as_slice(&self);
    fn expect(self, msg: &str) -> T;
    fn unwrap(self) -> T;
    fn unwrap_or(self, default: T) -> T;
    fn unwrap_or_else(self, f: impl FnOnce() -> T) -> T;
    fn unwrap_or_default(self) -> T;
    fn unwrap_unchecked(self) -> T;
    fn map<U>(self, f: impl FnOnce(T) -> U) -> Option<U>;
    fn inspect(self, f: impl FnOnce(&T)) -> Self;
    fn map_or<U>(self, default: U, f: impl FnOnce(T) -> U) -> U;
    fn map_or_else<U>(self, default: impl FnOnce() -> U, f: impl FnOnce(T) -> U) -> U;
    fn ok_or<E>(self, err: E) -> Result<T, E>;
    fn ok_or_else<E>(self, err: impl FnOnce() -> E) -> Result<T, E>;
    fn iter(&self) -> impl Iterator<Item = &T>;
    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T>;
    fn into_iter(self) -> impl Iterator<Item = T>;
    fn and<U>(self, optb: Option<U>) -> Option<U>;
    fn and_then<U>(self, f: impl FnOnce(T) -> Option<U>) -> Option<U>;
    fn filter(self, predicate: impl FnOnce(&T) -> bool) -> Self;
    fn or(self, optb: Option<T>) -> Self;
    fn or_else(self, f: impl FnOnce() -> Option<T>) -> Self;
    fn xor(self, optb: Option<T>) -> Self;
    fn insert(&mut self, value: T) -> &mut T;
    fn get_or_insert(&mut self, value: T) -> &mut T;
    fn get_or_insert_with(&mut self, f: impl FnOnce() -> T) -> &mut T;
    fn get_or_insert_default(&mut self) -> &mut T;
    fn take(&mut self) -> Self;
    fn take_if(&mut self, predicate: impl FnOnce(&mut T) -> bool);
    fn replace(&mut self, value: T) -> Self;
    fn zip<U>(self, other: Option<U>);
    fn unzip(self);
    fn copied(self) -> Self;
    fn cloned(self) -> Self;
    fn clone(&self) -> Self;
    fn transpose(self);
    fn flatten(self);
}

impl<T, E> Result<T, E> {
    fn is_ok(&self) -> bool;
    fn is_ok_and(self, f: impl FnOnce(T) -> bool) -> bool;
    fn is_err(&self) -> bool;
    fn is_err_and(self, f: impl FnOnce(E) -> bool) -> bool;
    fn ok(self) -> Option<T>;
    fn err(self) -> Option<E>;
    fn map<U>(self, op: impl FnOnce(T) -> U) -> Result<U, E>;
    fn map_or<U>(self, default: U, f: impl FnOnce(T) -> U) -> U;
    fn map_or_else<U>(self, default: D, f: F) -> U;
    fn map_err<F>(self, op: impl FnOnce(E) -> F) -> Result<T, F>;
    fn inspect(self, f: impl FnOnce(&T)) -> Self;
    fn inspect_err(self, f: impl FnOnce(&E)) -> Self;
    fn as_ref(&self) -> Result<&T, &E>;
    fn as_mut(&mut self) -> Result<&mut T, &mut E>;
    fn as_deref(&self) -> Result<&T, &E>;
    fn as_deref_mut(&mut self);
    fn iter(&self) -> impl Iterator<Item = &T>;
    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T>;
    fn into_iter(self) -> impl Iterator<Item = T>;
    fn expect(self, msg: &str) -> T;
    fn unwrap(self) -> T;
    fn unwrap_or_default(self) -> T;
    fn expect_err(self, msg: &str) -> E;
    fn unwrap_err(self) -> E;
    fn and<U>(self, res: Result<U, E>) -> Result<U, E>;
    fn and_then<U>(self, op: impl FnOnce(T) -> Result<U, E>) -> Result<U, E>;
    fn or<F>(self, res: Result<U, F>);
    fn or_else<F>(self, op: impl FnOnce(E) -> Result<T, F>) -> Self;
    fn unwrap_or(self, default: T) -> T;
    fn unwrap_or_else(self, op: impl FnOnce(E) -> T) -> T;
    fn unwrap_unchecked(self) -> T;
    fn copied(self) -> Self;
    fn cloned(self) -> Self;
    fn clone(&self) -> Self;
    fn transpose(self);
    fn flatten(self);
}

/// What starts an iteration over a sequence's elements or a map's values.
trait IterationSource<T> {
    fn iter(&self) -> impl Iterator<Item = &T>;
    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T>;
    fn into_iter(self) -> impl Iterator<Item = T>;
    fn drain(&mut self) -> impl Iterator<Item = T>;
    fn values(&self) -> impl Iterator<Item = &T>;
    fn values_mut(&mut self) -> impl Iterator<Item = &mut T>;
    fn into_values(self) -> impl Iterator<Item = T>;
}

impl<T> IterationSource<T> for Vec<T> {}
impl<K, T> IterationSource<T> for HashMap<K, T> {}

/// Every sequence: `Vec`, slices, arrays, `VecDeque`, sets, `BinaryHeap`, `SmallVec`…
impl<T> Vec<T> {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool;
    fn push(&mut self, value: T);
    fn pop(&mut self) -> Option<T>;
    fn insert(&mut self, index: usize, element: T);
    fn remove(&mut self, index: usize);
    fn swap_remove(&mut self, index: usize);
    fn truncate(&mut self, len: usize);
    fn clear(&mut self);
    fn extend(&mut self, iter: I);
    fn extend_from_slice(&mut self, other: &[T]);
    fn append(&mut self, other: &mut Self);
    fn retain(&mut self, f: impl FnMut(&T) -> bool);
    fn retain_mut(&mut self, f: impl FnMut(&mut T) -> bool);
    fn dedup(&mut self);
    fn dedup_by(&mut self, same_bucket: impl FnMut(&mut T, &mut T) -> bool);
    fn dedup_by_key<K>(&mut self, key: impl FnMut(&mut T) -> K);
    fn sort(&mut self);
    fn sort_by(&mut self, compare: impl FnMut(&T, &T) -> Ordering);
    fn sort_by_key<K>(&mut self, f: impl FnMut(&T) -> K);
    fn sort_by_cached_key<K>(&mut self, f: impl FnMut(&T) -> K);
    fn sort_unstable(&mut self);
    fn sort_unstable_by(&mut self, compare: impl FnMut(&T, &T) -> Ordering);
    fn sort_unstable_by_key<K>(&mut self, f: impl FnMut(&T) -> K);
    fn reverse(&mut self);
    fn first(&self) -> Option<&T>;
    fn last(&self) -> Option<&T>;
    fn first_mut(&mut self) -> Option<&mut T>;
    fn last_mut(&mut self) -> Option<&mut T>;
    fn get(&self, index: usize) -> Option<&T>;
    fn get_mut(&mut self, index: usize) -> Option<&mut T>;
    fn contains(&self, x: &T) -> bool;
    fn starts_with(&self, needle: &[T]) -> bool;
    fn ends_with(&self, needle: &[T]) -> bool;
    fn split_first(&self);
    fn split_last(&self);
    fn split_at(&self, mid: usize);
    fn split_off(&mut self, at: usize);
    fn chunks(&self, chunk_size: usize);
    fn chunks_exact(&self, chunk_size: usize);
    fn windows(&self, size: usize);
    fn join(&self, separator: S);
    fn concat(&self);
    fn to_vec(&self) -> Vec<T>;
    fn to_owned(&self) -> Self;
    fn clone(&self) -> Self;
    fn into_boxed_slice(self);
    fn capacity(&self) -> usize;
    fn reserve(&mut self, additional: usize);
    fn reserve_exact(&mut self, additional: usize);
    fn shrink_to_fit(&mut self);
    fn as_slice(&self);
    fn as_mut_slice(&mut self);
    fn binary_search(&self, x: &T);
    fn binary_search_by(&self, f: impl FnMut(&T) -> Ordering);
    fn binary_search_by_key<B>(&self, b: &B, f: impl FnMut(&T) -> B);
    fn push_back(&mut self, value: T);
    fn push_front(&mut self, value: T);
    fn pop_back(&mut self) -> Option<T>;
    fn pop_front(&mut self) -> Option<T>;
    fn front(&self) -> Option<&T>;
    fn back(&self) -> Option<&T>;
    fn front_mut(&mut self) -> Option<&mut T>;
    fn back_mut(&mut self) -> Option<&mut T>;
    fn union(&self, other: &Self);
    fn intersection(&self, other: &Self);
    fn difference(&self, other: &Self);
    fn symmetric_difference(&self, other: &Self);
    fn is_subset(&self, other: &Self) -> bool;
    fn is_superset(&self, other: &Self) -> bool;
    fn is_disjoint(&self, other: &Self) -> bool;
    fn resize(&mut self, new_len: usize, value: T);
    fn resize_with(&mut self, new_len: usize, f: impl FnMut() -> T);
    fn fill(&mut self, value: T);
    fn swap(&mut self, a: usize, b: usize);
    fn rotate_left(&mut self, mid: usize);
    fn rotate_right(&mut self, k: usize);
    fn splice(&mut self, range: R, replace_with: I);
    fn as_ptr(&self);
    fn partition_point(&self, pred: P) -> usize;
    fn contains_key(&self, key: &Q) -> bool;
    fn make_contiguous(&mut self);
    fn is_sorted(&self) -> bool;
    fn replace(&mut self, value: T);
    fn take(&mut self, value: &Q);
    fn peek(&self);
    fn into_sorted_vec(self);
}

/// Every map: `HashMap`, `BTreeMap`, `IndexMap`…; the element is the value. A map's own
/// iteration yields (key, value) pairs; the key's type is not kept.
impl<K, T> HashMap<K, T> {
    fn iter(&self) -> impl Iterator<Item = (&K, &T)>;
    fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut T)>;
    fn into_iter(self) -> impl Iterator<Item = (K, T)>;
    fn drain(&mut self) -> impl Iterator<Item = (K, T)>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool;
    fn insert(&mut self, k: K, v: T);
    fn remove(&mut self, k: &Q) -> Option<T>;
    fn remove_entry(&mut self, k: &Q);
    fn get(&self, k: &Q) -> Option<&T>;
    fn get_mut(&mut self, k: &Q) -> Option<&mut T>;
    fn get_key_value(&self, k: &Q);
    fn contains_key(&self, k: &Q) -> bool;
    fn entry(&mut self, key: K);
    fn keys(&self);
    fn into_keys(self);
    fn clear(&mut self);
    fn extend(&mut self, iter: I);
    fn retain(&mut self, f: impl FnMut(&K, &mut T) -> bool);
    fn reserve(&mut self, additional: usize);
    fn shrink_to_fit(&mut self);
    fn capacity(&self) -> usize;
    fn first_key_value(&self);
    fn last_key_value(&self);
    fn range(&self, range: R);
    fn swap_remove(&mut self, key: &Q);
    fn shift_remove(&mut self, key: &Q);
    fn get_index(&self, index: usize);
    fn get_index_of(&self, key: &Q);
    fn get_or_insert_with(&mut self, value: Q, f: F);
    fn try_insert(&mut self, key: K, value: T);
    fn clone(&self) -> Self;
}

/// `impl Iterator<Item = T>` and std's adapters over it.
impl<T> Iterator<T> {
    fn next(&mut self) -> Option<T>;
    fn map<B>(self, f: impl FnMut(T) -> B);
    fn filter(self, predicate: impl FnMut(&T) -> bool) -> Self;
    fn filter_map<B>(self, f: impl FnMut(T) -> Option<B>);
    fn flat_map<U>(self, f: impl FnMut(T) -> U);
    fn flatten(self);
    fn for_each(self, f: impl FnMut(T));
    fn any(&mut self, f: impl FnMut(T) -> bool) -> bool;
    fn all(&mut self, f: impl FnMut(T) -> bool) -> bool;
    fn find(&mut self, predicate: impl FnMut(&T) -> bool) -> Option<T>;
    fn find_map<B>(&mut self, f: impl FnMut(T) -> Option<B>) -> Option<B>;
    fn position(&mut self, predicate: impl FnMut(T) -> bool) -> Option<usize>;
    fn rposition(&mut self, predicate: impl FnMut(T) -> bool) -> Option<usize>;
    fn count(self) -> usize;
    fn last(self) -> Option<T>;
    fn nth(&mut self, n: usize) -> Option<T>;
    fn skip(self, n: usize) -> Self;
    fn take(self, n: usize) -> Self;
    fn skip_while(self, predicate: impl FnMut(&T) -> bool) -> Self;
    fn take_while(self, predicate: impl FnMut(&T) -> bool) -> Self;
    fn map_while<B>(self, predicate: impl FnMut(T) -> Option<B>);
    fn step_by(self, step: usize) -> Self;
    fn chain(self, other: U) -> Self;
    fn zip(self, other: U);
    fn unzip(self);
    fn enumerate(self) -> impl Iterator<Item = (usize, T)>;
    fn peekable(self) -> Self;
    fn fuse(self) -> Self;
    fn inspect(self, f: impl FnMut(&T)) -> Self;
    fn by_ref(&mut self) -> Self;
    fn collect(self) -> Vec<T> where T: ProjectType;
    fn partition<B>(self, f: impl FnMut(&T) -> bool);
    fn fold<B>(self, init: B, f: impl FnMut(B, T) -> B) -> B;
    fn try_fold<B, R>(&mut self, init: B, f: impl FnMut(B, T) -> R) -> R;
    fn try_for_each<R>(&mut self, f: impl FnMut(T) -> R) -> R;
    fn reduce(self, f: impl FnMut(T, T) -> T) -> Option<T>;
    fn max(self) -> Option<T>;
    fn min(self) -> Option<T>;
    fn max_by(self, compare: impl FnMut(&T, &T) -> Ordering) -> Option<T>;
    fn max_by_key<B>(self, f: impl FnMut(&T) -> B) -> Option<T>;
    fn min_by(self, compare: impl FnMut(&T, &T) -> Ordering) -> Option<T>;
    fn min_by_key<B>(self, f: impl FnMut(&T) -> B) -> Option<T>;
    fn rev(self) -> Self;
    fn cloned(self) -> Self;
    fn copied(self) -> Self;
    fn cycle(self) -> Self;
    fn sum<S>(self) -> S;
    fn product<P>(self) -> P;
    fn lt(self, other: I) -> bool;
    fn le(self, other: I) -> bool;
    fn gt(self, other: I) -> bool;
    fn ge(self, other: I) -> bool;
    fn next_back(&mut self) -> Option<T>;
    fn nth_back(&mut self, n: usize) -> Option<T>;
    fn rfind(&mut self, predicate: impl FnMut(&T) -> bool) -> Option<T>;
    fn rfold<B>(self, init: B, f: impl FnMut(B, T) -> B) -> B;
    fn len(&self) -> usize;
    fn size_hint(&self);
    fn scan<St, B>(self, initial_state: St, f: impl FnMut(&mut St, T) -> Option<B>);
    fn is_sorted(self) -> bool;
    fn is_sorted_by(self, compare: F) -> bool;
    fn is_sorted_by_key<K>(self, f: impl FnMut(T) -> K) -> bool;
    fn peek(&mut self) -> Option<&T>;
    fn next_if(&mut self, func: F);
    fn next_if_eq(&mut self, expected: &Q);
    fn into_iter(self);
    fn array_chunks(self);
    fn map_windows(self, f: F);
}

/// itertools' `Itertools`, implemented for every iterator.
#[extension]
trait Itertools<T> {
    fn sorted_by(self, cmp: impl FnMut(&T, &T) -> Ordering);
    fn sorted_by_key<K>(self, f: impl FnMut(&T) -> K);
    fn sorted_unstable_by_key<K>(self, f: impl FnMut(&T) -> K);
    fn sorted_by_cached_key<K>(self, f: impl FnMut(&T) -> K);
    fn unique_by<V>(self, f: impl FnMut(&T) -> V);
    fn dedup_by(self, cmp: impl FnMut(&T, &T) -> bool);
    fn positions(self, predicate: impl FnMut(T) -> bool);
}

impl<T> Itertools<T> for Iterator<T> {}

/// A smart pointer's own methods (through `Clone`, `Deref`, `Debug`… and its own API),
/// whatever its pointee: `arc.clone()` clones the `Arc`, not the value. Every other method and
/// field is the pointee's.
trait SmartPointer<T> {
    fn clone(&self) -> Self;
    fn clone_from(&mut self, source: &Self);
    fn as_ref(&self) -> &T;
    fn as_mut(&mut self);
    fn borrow(&self) -> &T;
    fn borrow_mut(&mut self);
    fn deref(&self) -> &T;
    fn deref_mut(&mut self);
    fn fmt(&self, f: &mut Formatter) -> fmt::Result;
    fn eq(&self, other: &Self) -> bool;
    fn ne(&self, other: &Self) -> bool;
    fn cmp(&self, other: &Self) -> Ordering;
    fn partial_cmp(&self, other: &Self);
    fn lt(&self, other: &Self) -> bool;
    fn le(&self, other: &Self) -> bool;
    fn gt(&self, other: &Self) -> bool;
    fn ge(&self, other: &Self) -> bool;
    fn hash(&self, state: &mut H);
    fn into_inner(this: Self);
    fn downgrade(this: &Self);
    fn strong_count(this: &Self) -> usize;
    fn weak_count(this: &Self) -> usize;
    fn ptr_eq(this: &Self, other: &Self) -> bool;
    fn as_ptr(this: &Self);
    fn get_mut(this: &mut Self);
    fn make_mut(this: &mut Self);
    fn try_unwrap(this: Self);
    fn unwrap_or_clone(this: Self);
    fn leak(b: Self);
    fn into_raw(b: Self);
    fn pin(x: T);
    fn into_pin(boxed: Self);
    fn as_raw_fd(&self);
    fn as_fd(&self);
    fn as_raw_handle(&self);
    fn as_raw_socket(&self);
    fn type_id(&self);
    fn to_string(&self) -> String;
    fn to_owned(&self);
    fn into(self);
    fn try_into(self);
    fn default();
}

impl<T> SmartPointer<T> for Box<T> {}
impl<T> SmartPointer<T> for Rc<T> {}
impl<T> SmartPointer<T> for Arc<T> {}

/// `Pin<P>` (`self: Pin<&mut Self>`): its own methods are std's; every other method and field
/// is the pointee's.
impl<T> Pin<T> {
    fn as_mut(&mut self) -> Self;
    fn as_ref(&self) -> Self;
    fn into_ref(self) -> Self;
    fn as_deref_mut(self) -> Self;
    fn get_mut(self) -> &mut T;
    fn get_ref(self) -> &T;
    fn get_unchecked_mut(self) -> &mut T;
    fn into_inner(pin: Self) -> T;
    fn into_inner_unchecked(pin: Self) -> T;
    fn set(&mut self, value: T);
    fn map_unchecked(self, func: F);
    fn map_unchecked_mut(self, func: F);
    fn static_ref(r: &T);
    fn static_mut(r: &mut T);
}

/// `impl Future<Output = T>` and what an `async fn` returns: `.await` gives the element.
impl<T> Future<T> {
    fn poll(self, cx: &mut Context);
    fn into_future(self);
}

/// `std::task::Poll<T>`: `ready!(…)` gives the element.
impl<T> Poll<T> {
    fn is_ready(&self) -> bool;
    fn is_pending(&self) -> bool;
    fn map<U>(self, f: F) -> Poll<U>;
    fn map_ok(self, f: F);
    fn map_err(self, f: F);
}
