"""The real datasets of the book: a sha256-verified registry and tidy loaders.

Where the files come from
-------------------------
* If the environment variable ``LDPNB_DATA_DIR`` is set, every file is read from that folder, laid
  out like ``shared/data/raw`` (``adult/adult.data``, ``movielens_100k/u.data``, ...). Nothing is
  downloaded. Each file's sha256 is checked against the registry before it is parsed (once per
  process and per file version).
* Otherwise the file is downloaded from its public URL with :mod:`pooch` into the pooch cache
  (``pooch.os_cache("ldpnb")``, overridden by ``LDPNB_CACHE_DIR``) and verified by sha256. The
  MovieLens files are members of the GroupLens zips (``ml-latest-small.zip``, ``ml-100k.zip``):
  the zip is downloaded, the member extracted with ``pooch.Unzip`` and the member verified.

A missing file, a failed download or a sha256 mismatch raises :class:`DataError` (a
``ValueError``) naming the file, its URL and the environment variable. A corrupted or truncated
file is never parsed, and no loader falls back to synthetic data.

The Foursquare NYC fragment has no public URL: it is only available through ``LDPNB_DATA_DIR``.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ldpnb._optional import import_optional
from ldpnb.contracts import SEED, Array, Instance, Integer, OneOf, Optional, contract
from ldpnb.utils import check_random_state

if TYPE_CHECKING:
    import pandas as pd
else:  # the tables come with the data extra: pip install 'ldpnb[data]'
    pd = import_optional("pandas")

__all__ = [
    "DataError",
    "DataFile",
    "REGISTRY",
    "ENV_DATA_DIR",
    "ENV_CACHE_DIR",
    "data_dir",
    "cache_dir",
    "fetch",
    "sha256sum",
    "clear_memory_cache",
    "load_adult",
    "ADULT_COLUMNS",
    "ADULT_RISKS_ATTRIBUTES",
    "load_adult_risks",
    "adult_ages",
    "load_acs_employment",
    "ACS_COLUMNS",
    "make_nursery",
    "NURSERY_VALUES",
    "MANHATTAN_BOX",
    "load_gowalla_nyc",
    "load_gowalla_privic",
    "MovieLens",
    "load_movielens_latest_small",
    "load_movielens_100k",
    "load_foursquare_nyc_fragment",
]


ENV_DATA_DIR = "LDPNB_DATA_DIR"


ENV_CACHE_DIR = "LDPNB_CACHE_DIR"


class DataError(ValueError):
    """A dataset file is missing, could not be downloaded, or fails its sha256 check."""


# ---------------------------------------------------------------------------------------------
# Registry


@dataclass(frozen=True)
class DataFile:
    """One file of the registry.

    ``path`` is the file's path relative to ``LDPNB_DATA_DIR`` (and to the cache). ``url`` is the
    direct public URL, or for a zip member the zip's URL with ``member`` the path inside the zip.
    ``url=None`` means there is no public source (local copy only).
    """

    path: str
    sha256: str
    url: str | None
    member: str | None = None
    size: int | None = None
    description: str = ""

    @property
    def name(self) -> str:
        return self.path

    @property
    def source(self) -> str:
        """Human-readable source for error messages."""
        if self.url is None:
            return "no public URL (local copy only)"
        if self.member is not None:
            return f"{self.url} (member {self.member})"
        return self.url

    @property
    def is_zip_member(self) -> bool:
        return self.member is not None


_ML_SMALL_ZIP = "https://files.grouplens.org/datasets/movielens/ml-latest-small.zip"


_ML_100K_ZIP = "https://files.grouplens.org/datasets/movielens/ml-100k.zip"


_FILES = [
    DataFile(
        "adult/adult.data",
        "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
        "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/adult.data",
        size=3974305,
        description="UCI Adult, training part, 32,561 rows, no header",
    ),
    DataFile(
        "adult/adult.test",
        "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
        "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/adult.test",
        size=2003153,
        description="UCI Adult, test part, 16,281 rows after a '|1x3 Cross validator' line; labels end with '.'",
    ),
    DataFile(
        "acs_employment_mt/db_ACSEmployement.csv",
        "8566786ff5f154527af01edc3c78e90ac17238c6a327ce31707fd50222bf20c7",
        "https://raw.githubusercontent.com/hharcolezi/risks-ldp/61dc53d13d4dfad25ce182ac977ea03a882fdf69/"
        "datasets/db_ACSEmployement.csv",
        size=628506,
        description="ACSEmployment (folktables), Montana, 10,336 x 18; missing = -99999.0 (Risks artifact)",
    ),
    DataFile(
        "gowalla_nyc_academy/gowalla_events.csv.gz",
        "82bde51330ab2532dea8965197464dcdc5c29b89511656af7e76c226b79061f5",
        "https://raw.githubusercontent.com/rohitpandey13/academy/7e7919ac6ad5b4c299c7368c05953964820acb8f/"
        "tutorials/geo-located-data/jupyter/notebooks/data/gowalla_events.csv.gz",
        size=2294240,
        description="Gowalla (SNAP loc-gowalla_totalCheckins) cut to a New York box: 138,957 check-ins, 7,115 users",
    ),
    DataFile(
        "gowalla_privic/gowalla_paris.csv",
        "cad6b6e3f439b924c4b08ce8b7caf7b3cd119cde27639b78fb806887a60386bd",
        "https://raw.githubusercontent.com/blitzwas/PRIVIC/21a460cfbf102e9a3361daf16eae5502775b847f/"
        "Gowalla_Paris_(No%20head).csv",
        size=279011,
        description="Gowalla check-ins in central Paris, lat,lon, 10,991 rows (PRIVIC authors' file)",
    ),
    DataFile(
        "gowalla_privic/gowalla_sf.csv",
        "9431bd94200d60cc944e6717a989f70c16dcf86f34ed614b4b49c5fe2ef094ac",
        "https://raw.githubusercontent.com/blitzwas/PRIVIC/21a460cfbf102e9a3361daf16eae5502775b847f/"
        "Gowalla_SF_(No%20head).csv",
        size=3561790,
        description="Gowalla check-ins in northern San Francisco, lat,lon, 123,026 rows (PRIVIC authors' file)",
    ),
    DataFile(
        "movielens_latest_small/ratings.csv",
        "aa289ca83157595d0df6aea1be6a4ded676ddc4385472e8313a8ed9805352646",
        _ML_SMALL_ZIP,
        member="ml-latest-small/ratings.csv",
        size=2483723,
        description="MovieLens ml-latest-small: 100,836 ratings, 610 users",
    ),
    DataFile(
        "movielens_latest_small/movies.csv",
        "5a5f32dd9bb3797b8e728a1b98958789d2b13f294a69fdfbc5727f8a9611aa07",
        _ML_SMALL_ZIP,
        member="ml-latest-small/movies.csv",
    ),
    DataFile(
        "movielens_latest_small/links.csv",
        "97ad18e4e56a09363c65676b6cb3482ce3e2cea2372a24620c1599c843325f31",
        _ML_SMALL_ZIP,
        member="ml-latest-small/links.csv",
    ),
    DataFile(
        "movielens_latest_small/tags.csv",
        "92a9f8bb7916dceef6151209845788c3643f794dfa79d1feaec7121b5960399d",
        _ML_SMALL_ZIP,
        member="ml-latest-small/tags.csv",
    ),
    DataFile(
        "movielens_latest_small/README.txt",
        "63d22ac138e80fae37021797ed8e1b9424b5239dc576a137422adf783ae3f404",
        _ML_SMALL_ZIP,
        member="ml-latest-small/README.txt",
    ),
    DataFile(
        "movielens_100k/u.data",
        "06416e597f82b7342361e41163890c81036900f418ad91315590814211dca490",
        _ML_100K_ZIP,
        member="ml-100k/u.data",
        size=1979173,
        description="MovieLens 100k: 100,000 ratings, 943 users, tab-separated",
    ),
    DataFile(
        "movielens_100k/u.item",
        "553841ebc7de3a0fd0d6b62a204ea30c1e651aacfb2814c7a6584ac52f2c5701",
        _ML_100K_ZIP,
        member="ml-100k/u.item",
    ),
    DataFile(
        "movielens_100k/u.user",
        "f120e114da2e8cf314fd28f99417c94ae9ddf1cb6db8ce0e4b5995d40e90e62c",
        _ML_100K_ZIP,
        member="ml-100k/u.user",
    ),
    DataFile(
        "movielens_100k/README",
        "4883b8cf340ed0059971b33f56ad3adc88a40792108ebca3d24aafc4c82e8b52",
        _ML_100K_ZIP,
        member="ml-100k/README",
    ),
    DataFile(
        "foursquare_nyc_getnext_partial/NYC_val.csv.gz",
        "04c73dc28b6522f88fe2d919e9a3d5321fccc74481b09597b70d9011fb5fe41f",
        None,
        size=284523,
        description="fragment of Foursquare TSMC2014 NYC (validation split)",
    ),
    DataFile(
        "foursquare_nyc_getnext_partial/NYC_test.csv.gz",
        "f1e6c77375ab36ad6c1d4d689028110425a5325b129afa85cd1e75217a5a682a",
        None,
        size=297221,
        description="fragment of Foursquare TSMC2014 NYC (test split)",
    ),
]


#: name (= path relative to the data folder) -> :class:`DataFile`.
REGISTRY: dict[str, DataFile] = {f.path: f for f in _FILES}

_BASENAMES = [b for b in {Path(f.path).name for f in _FILES} if sum(Path(g.path).name == b for g in _FILES) == 1]
#: Names :func:`fetch` accepts: registry keys and the file names that are unique.
_NAME = OneOf(*REGISTRY, *sorted(_BASENAMES))


def _resolve(name: str) -> DataFile:
    """Registry entry of ``name``: a relative path, or a file name when it is unique."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if name in REGISTRY:
        return REGISTRY[name]
    matches = [f for f in _FILES if Path(f.path).name == name]
    if len(matches) == 1:
        return matches[0]
    raise KeyError(f"unknown dataset file {name!r}; known files: {sorted(REGISTRY)}")


@contract()
def data_dir() -> Path:
    """Folder the files are read from: ``LDPNB_DATA_DIR`` if set, else the download cache."""
    local = os.environ.get(ENV_DATA_DIR)
    if local:
        return Path(local).expanduser()
    return cache_dir()


@contract()
def cache_dir() -> Path:
    """Download cache: ``LDPNB_CACHE_DIR`` if set, else ``pooch.os_cache("ldpnb")``."""
    env = os.environ.get(ENV_CACHE_DIR)
    if env:
        return Path(env).expanduser()
    pooch = import_optional("pooch")  # loads only when a file is downloaded

    return Path(pooch.os_cache("ldpnb"))


@contract(path=Instance(str, os.PathLike, example=__file__))
def sha256sum(path) -> str:
    """Hex sha256 of a file (streamed in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# (resolved path, size, mtime_ns, expected sha256) of files already verified in this process
_VERIFIED: set[tuple[str, int, int, str]] = set()


def _verify(path: Path, entry: DataFile, where: str) -> Path:
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns, entry.sha256)
    if key in _VERIFIED:
        return path
    got = sha256sum(path)
    if got != entry.sha256:
        hint = (
            f"the file looks truncated ({st.st_size} bytes, expected {entry.size})"
            if entry.size is not None and st.st_size < entry.size
            else "the file is corrupted or is not the published version"
        )
        raise DataError(
            f"sha256 mismatch for dataset file {entry.path!r} at {path} ({where}): expected {entry.sha256}, "
            f"got {got}; {hint}. Refusing to parse it. Source: {entry.source}. Replace it with a byte-exact copy "
            f"(in the folder given by {ENV_DATA_DIR}), or unset {ENV_DATA_DIR} to download it into the cache "
            f"({ENV_CACHE_DIR} overrides the cache folder)."
        )
    _VERIFIED.add(key)
    return path


@contract(name=_NAME)
def fetch(name: str) -> Path:
    """Local path of a verified dataset file.

    Parameters
    ----------
    name : str
        A registry key, i.e. the file's path relative to the data folder (``"adult/adult.data"``),
        or its bare file name when unique (``"u.data"``).

    Returns
    -------
    pathlib.Path
        With ``LDPNB_DATA_DIR`` set: ``$LDPNB_DATA_DIR/<path>`` after its sha256 was checked (never
        downloads). Otherwise the file downloaded with pooch into the cache and sha256-verified.

    Raises
    ------
    DataError
        Missing file, failed download, sha256 mismatch (corrupted or truncated file), or a
        local-only file requested without ``LDPNB_DATA_DIR``.
    """
    entry = _resolve(name)
    local = os.environ.get(ENV_DATA_DIR)
    if local:
        root = Path(local).expanduser()
        path = root / entry.path
        if not path.is_file():
            raise DataError(
                f"dataset file {entry.path!r} not found at {path} ({ENV_DATA_DIR}={local}). "
                f"Source: {entry.source}. Put a byte-exact copy there (sha256 {entry.sha256}), or unset "
                f"{ENV_DATA_DIR} to download it into the cache."
            )
        return _verify(path, entry, f"{ENV_DATA_DIR}={local}")
    if entry.url is None:
        raise DataError(
            f"dataset file {entry.path!r} has no public URL and can only be read from a local copy: set "
            f"{ENV_DATA_DIR} to a folder laid out like shared/data/raw (containing {entry.path})."
        )
    return _download(entry)


def _download(entry: DataFile) -> Path:
    pooch = import_optional("pooch")  # loads only when a file is downloaded

    cache = cache_dir()
    where = f"pooch cache {cache}"
    try:
        if entry.is_zip_member:
            zip_name = entry.url.rsplit("/", 1)[-1]
            extract_dir = zip_name[: -len(".zip")] if zip_name.endswith(".zip") else zip_name + ".d"
            # The zips' own hashes are not published in the data README; each member is verified below.
            paths = pooch.retrieve(
                entry.url,
                known_hash=None,
                fname=zip_name,
                path=cache,
                processor=pooch.Unzip(members=[entry.member], extract_dir=extract_dir),
                progressbar=False,
            )
            path = Path(paths[0])
        else:
            sub = cache / Path(entry.path).parent
            path = Path(
                pooch.retrieve(
                    entry.url,
                    known_hash=f"sha256:{entry.sha256}",
                    fname=Path(entry.path).name,
                    path=sub,
                    progressbar=False,
                )
            )
    except DataError:
        raise
    except Exception as exc:  # network errors, pooch's hash-mismatch ValueError, bad zips, ...
        raise DataError(
            f"could not download dataset file {entry.path!r} from {entry.source} into the {where}: "
            f"{type(exc).__name__}: {exc}. Without internet access, set {ENV_DATA_DIR} to a folder laid out "
            f"like shared/data/raw that contains {entry.path}."
        ) from exc
    try:
        return _verify(path, entry, where)
    except DataError:
        if entry.is_zip_member:
            # remove the bad member and its zip (whose own hash is not known), so that the next call
            # downloads and extracts them again instead of failing forever
            path.unlink(missing_ok=True)
            (cache / entry.url.rsplit("/", 1)[-1]).unlink(missing_ok=True)
        raise


@contract()
def clear_memory_cache() -> None:
    """Forget this process's sha256 verifications and parsed tables (files are re-checked on next use)."""
    _VERIFIED.clear()
    _read_cached.cache_clear()


# ---------------------------------------------------------------------------------------------
# small cache of parsed raw tables (keyed by file version; loaders return copies)


def _file_key(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return (str(path.resolve()), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _read_cached(kind: str, key: tuple[str, int, int], name: str) -> pd.DataFrame:
    # a parse happens only on a cache miss (first use, eviction or clear_memory_cache()): the bytes
    # about to be parsed are hashed again here, whatever the verification memo says, so a file
    # changed in place since it was first verified (same size and mtime) is never parsed
    path = Path(key[0])
    entry = _resolve(name)
    _VERIFIED.discard(key + (entry.sha256,))
    _verify(path, entry, "re-verified before parsing")
    return _READERS[kind](path)


def _read(kind: str, name: str) -> pd.DataFrame:
    path = fetch(name)
    return _read_cached(kind, _file_key(path), name).copy()


# ---------------------------------------------------------------------------------------------
# Adult

#: Column names of UCI Adult (``adult.names``); the income column is called ``salary`` as in the
#: Risks paper's artifact.
ADULT_COLUMNS = [
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education-num",
    "marital-status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital-gain",
    "capital-loss",
    "hours-per-week",
    "native-country",
    "salary",
]


def _read_adult_file(path: Path) -> pd.DataFrame:
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    skip = 1 if first.startswith("|") else 0
    df = pd.read_csv(
        path,
        header=None,
        names=ADULT_COLUMNS,
        skiprows=skip,
        skipinitialspace=True,
        na_values=["?"],
        keep_default_na=False,
        skip_blank_lines=True,
    )
    df["salary"] = df["salary"].str.rstrip(".")
    return df


@contract(part=OneOf("all", "train", "test"))
def load_adult(part: str = "all") -> pd.DataFrame:
    """UCI Adult (Becker & Kohavi 1996), 15 named columns, ``"?"`` as missing (NaN).

    Source: ``adult.data`` (32,561 rows) and ``adult.test`` (16,281 rows after its first line
    ``|1x3 Cross validator``, which is skipped), https://archive.ics.uci.edu/dataset/2/adult.
    Preprocessing: spaces after the commas stripped; the trailing ``"."`` of the test labels
    (``"<=50K."``, ``">50K."``) removed so that ``salary`` is ``"<=50K"`` / ``">50K"`` in both
    parts; ``"?"`` -> NaN (workclass, occupation, native-country). No row is dropped.

    Parameters
    ----------
    part : {"all", "train", "test"}
        ``"all"`` (48,842 rows: train then test, index 0..48,841), ``"train"`` or ``"test"``.
    """
    frames = []
    if part in ("all", "train"):
        frames.append(_read("adult", "adult/adult.data"))
    if part in ("all", "test"):
        frames.append(_read("adult", "adult/adult.test"))
    return pd.concat(frames, ignore_index=True)


#: The 10 attributes of the Risks paper (Arcolezi et al. 2023), in the artifact's order.
ADULT_RISKS_ATTRIBUTES = [
    "age",
    "workclass",
    "education",
    "marital-status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "native-country",
    "salary",
]


def _label_encode(df: pd.DataFrame) -> tuple[pd.DataFrame, list[int], dict[str, list]]:
    """Encode every column by its sorted distinct values (sklearn ``LabelEncoder`` order)."""
    out = {}
    ks = []
    cats = {}
    for col in df.columns:
        values = np.sort(df[col].unique())
        out[col] = np.searchsorted(values, df[col].to_numpy()).astype(np.int64)
        ks.append(int(values.size))
        cats[col] = values.tolist()
    enc = pd.DataFrame(out, index=df.index)
    return enc, ks, cats


@contract()
def load_adult_risks() -> tuple[pd.DataFrame, list[int]]:
    """Adult as cleaned by Arcolezi et al. (2023), "On the Risks of Collecting Multidimensional
    Data Under LDP", §4.1 and its artifact.

    Preprocessing: concatenate ``adult.data`` and ``adult.test`` (see :func:`load_adult`), drop
    every row with a missing value (``"?"``) -> n = 45,222; keep the 10 attributes
    :data:`ADULT_RISKS_ATTRIBUTES`; label-encode every column by its sorted distinct values
    (age is the raw integer, no binning: all 74 ages 17..90 occur, so its code is ``age - 17``).
    The row index 0..45,221 is the user ID used by the re-identification experiments.

    Returns
    -------
    df : DataFrame
        45,222 x 10, int64 codes. ``df.attrs["categories"][col]`` lists the original values in
        code order.
    ks : list of int
        Domain sizes ``[74, 7, 16, 7, 14, 6, 5, 2, 41, 2]``.
    """
    raw = load_adult("all").dropna().reset_index(drop=True)
    enc, ks, cats = _label_encode(raw[ADULT_RISKS_ATTRIBUTES])
    enc.attrs["categories"] = cats
    enc.attrs["source"] = "UCI Adult (adult.data + adult.test), cleaned as in Arcolezi et al. 2023"
    return enc, ks


@contract()
def adult_ages() -> np.ndarray:
    """Ages of all 48,842 Adult records (train + test, no filtering), an int64 array.

    ElSalamouny & Palamidessi (2020), §7: the input alphabet is X = {0..99} and
    the age itself is the symbol (x = age, support 17..90, no mass on 0..16 and 91..99). The
    empirical distribution is ``np.bincount(adult_ages(), minlength=100) / 48842``.
    """
    return load_adult("all")["age"].to_numpy(dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# ACS Employment (Montana)

#: Columns of the artifact's ACSEmployment file, in order.
ACS_COLUMNS = [
    "AGEP", "SCHL", "MAR", "SEX", "DIS", "ESP", "MIG", "CIT", "MIL",
    "ANC", "NATIVITY", "RELP", "DEAR", "DEYE", "DREM", "RAC1P", "GCL", "ESR",
]  # fmt: skip


ACS_MISSING = -99999.0


def _read_acs(path: Path) -> pd.DataFrame:
    return pd.read_csv(path)


@contract()
def load_acs_employment() -> tuple[pd.DataFrame, list[int]]:
    """ACSEmployment of folktables (Ding et al. 2021), Montana, as preprocessed by the artifact of
    Arcolezi et al. (2023) (``datasets/db_ACSEmployement.csv``).

    10,336 persons x 18 attributes (the 16 folktables ACSEmployment features + GCL + the raw
    target ESR). Missing values are coded ``-99999.0`` in the file; as in the paper they are a
    category of their own (SCHL, ESP, MIG, MIL, DREM, GCL, ESR). Every column is label-encoded by
    its sorted raw values, so the missing category is code 0.

    Returns
    -------
    df : DataFrame
        10,336 x 18, int64 codes; ``df.attrs["categories"][col]`` lists the raw values in code
        order (NaN for the missing category).
    ks : list of int
        ``[92, 25, 5, 2, 2, 9, 4, 5, 5, 4, 2, 18, 2, 2, 3, 9, 3, 6]``.
    """
    raw = _read("acs", "acs_employment_mt/db_ACSEmployement.csv")
    if list(raw.columns) != ACS_COLUMNS:
        raise DataError(f"unexpected ACSEmployment columns {list(raw.columns)}, expected {ACS_COLUMNS}")
    enc, ks, cats = _label_encode(raw)
    enc.attrs["categories"] = {c: [np.nan if v == ACS_MISSING else v for v in vals] for c, vals in cats.items()}
    enc.attrs["source"] = "folktables ACSEmployment, MT (risks-ldp artifact db_ACSEmployement.csv)"
    return enc, ks


# ---------------------------------------------------------------------------------------------
# Nursery (generated)

#: The attributes of UCI Nursery (Olave, Rajkovic & Bohanec 1989) and their values, and the class.
NURSERY_VALUES = {
    "parents": ["usual", "pretentious", "great_pret"],
    "has_nurs": ["proper", "less_proper", "improper", "critical", "very_crit"],
    "form": ["complete", "completed", "incomplete", "foster"],
    "children": ["1", "2", "3", "more"],
    "housing": ["convenient", "less_conv", "critical"],
    "finance": ["convenient", "inconv"],
    "social": ["nonprob", "slightly_prob", "problematic"],
    "health": ["recommended", "priority", "not_recom"],
}


NURSERY_CLASS_COUNTS = {"not_recom": 4320, "priority": 4266, "spec_prior": 4044, "very_recom": 328, "recommend": 2}


@contract(n=Integer(12_959, 12_960), rng=SEED)
def make_nursery(n: int = 12_959, *, rng=0) -> tuple[pd.DataFrame, list[int]]:
    """UCI Nursery rebuilt as its full factorial design (Olave, Rajkovic & Bohanec 1989).

    The 8 attributes of Nursery take every combination of :data:`NURSERY_VALUES` exactly once
    (3*5*4*4*3*2*3*3 = 12,960 rows, in the UCI file's order: ``itertools.product``). The class
    column has the UCI marginal :data:`NURSERY_CLASS_COUNTS`: ``not_recom`` iff
    ``health == "not_recom"`` (exact), the first row (all first values) is ``recommend`` (as in the
    UCI file), and the other 8,639 rows get ``recommend`` x1, ``priority`` x4266, ``spec_prior``
    x4044, ``very_recom`` x328 by a random permutation (``rng``). Only marginals matter for the
    experiment that uses it (Arcolezi et al. 2023, Fig. 15: attribute inference).

    The paper uses n = 12,959 (one row fewer, which one is not stated): with ``n=12959`` (default)
    the first row is dropped, as a ``read_csv`` header quirk would do; ``n=12960`` keeps all rows.

    Returns
    -------
    df : DataFrame
        n x 9 int64 codes (label-encoded, sorted value order as sklearn's ``LabelEncoder``),
        ``df.attrs["categories"]`` lists the values in code order.
    ks : list of int
        ``[3, 5, 4, 4, 3, 2, 3, 3, 5]``.
    """
    gen = check_random_state(rng)
    rows = list(itertools.product(*NURSERY_VALUES.values()))
    df = pd.DataFrame(rows, columns=list(NURSERY_VALUES))
    cls = np.empty(len(df), dtype=object)
    not_rec = (df["health"] == "not_recom").to_numpy()
    cls[not_rec] = "not_recom"
    cls[0] = "recommend"
    rest = np.flatnonzero(~not_rec)
    rest = rest[rest != 0]
    others = ("recommend", "priority", "spec_prior", "very_recom")
    pool = np.concatenate([np.repeat(c, NURSERY_CLASS_COUNTS[c] - (c == "recommend")) for c in others])
    cls[rest] = gen.permutation(pool)
    df["class"] = cls
    if int(n) == 12_959:
        df = df.iloc[1:].reset_index(drop=True)
    enc, ks, cats = _label_encode(df)
    enc.attrs["categories"] = cats
    enc.attrs["source"] = "UCI Nursery full factorial, regenerated (class assignment partly random)"
    return enc, ks


# ---------------------------------------------------------------------------------------------
# Gowalla

#: Manhattan box of ElSalamouny & Palamidessi (2020), §7: (lat_min, lat_max, lon_min, lon_max).
MANHATTAN_BOX = (40.7044, 40.7942, -74.0205, -73.9374)


def _read_gowalla_nyc(path: Path) -> pd.DataFrame:
    df = pd.read_csv(
        path,
        sep="\t",
        header=None,
        names=["user", "time", "lat", "lon", "location_id"],
        dtype={"user": np.int64, "time": str, "lat": np.float64, "lon": np.float64, "location_id": np.int64},
        compression="gzip",
    )
    df["time"] = pd.to_datetime(df["time"], format="%Y-%m-%dT%H:%M:%SZ", utc=True)
    return df


def _check_box(box) -> tuple[float, float, float, float]:
    try:
        vals = tuple(float(v) for v in box)
    except TypeError as exc:
        raise TypeError(f"box must be (lat_min, lat_max, lon_min, lon_max), got {box!r}") from exc
    if len(vals) != 4 or not all(np.isfinite(vals)):
        raise ValueError(f"box must be 4 finite numbers (lat_min, lat_max, lon_min, lon_max), got {box!r}")
    if not (vals[0] < vals[1] and vals[2] < vals[3]):
        raise ValueError(f"box needs lat_min < lat_max and lon_min < lon_max, got {box!r}")
    return vals


@contract(box=Optional(Array(1, shape=(4,))))
def load_gowalla_nyc(box=None) -> pd.DataFrame:
    """Gowalla check-ins (Cho, Myers & Leskovec 2011, SNAP loc-gowalla) in a New York box.

    Source: ``gowalla_events.csv.gz``, the SNAP ``loc-gowalla_totalCheckins`` file cut to New York
    (138,957 check-ins by 7,115 users), tab-separated user, time, lat, lon, location id.

    Parameters
    ----------
    box : (lat_min, lat_max, lon_min, lon_max), optional
        Keep check-ins with ``lat_min <= lat <= lat_max`` and ``lon_min <= lon <= lon_max``
        (closed box). :data:`MANHATTAN_BOX` gives 98,061 check-ins (the IBU paper reports 98,060).

    Returns
    -------
    DataFrame
        Columns ``user`` (int), ``time`` (datetime64, UTC), ``lat``, ``lon`` (float, degrees),
        ``location_id`` (int), in file order; every check-in is one row (no de-duplication).
    """
    df = _read("gowalla_nyc", "gowalla_nyc_academy/gowalla_events.csv.gz")
    if box is not None:
        la0, la1, lo0, lo1 = _check_box(box)
        keep = df["lat"].between(la0, la1) & df["lon"].between(lo0, lo1)
        df = df.loc[keep].reset_index(drop=True)
    return df


def _read_latlon(path: Path) -> pd.DataFrame:
    # read as text and convert with numpy (correctly rounded), so that points compare with the
    # bin edges exactly as Python's float() does in the authors' scripts
    raw = pd.read_csv(path, header=None, names=["lat", "lon"], dtype=str)
    return pd.DataFrame({"lat": raw["lat"].to_numpy(dtype=np.float64), "lon": raw["lon"].to_numpy(dtype=np.float64)})


@contract(city=OneOf("paris", "sf"))
def load_gowalla_privic(city: str) -> pd.DataFrame:
    """The Gowalla extracts of PRIVIC (Biswas & Palamidessi 2023), ``lat``, ``lon`` in degrees.

    Source: the authors' repository (blitzwas/PRIVIC), files ``Gowalla_Paris_(No head).csv``
    (10,991 check-ins in lat 48.8286..48.8798, lon 2.2855..2.3909) and ``Gowalla_SF_(No
    head).csv`` (123,026 check-ins in lat 37.7228..37.7946, lon -122.5153..-122.3789), themselves
    cut from SNAP loc-gowalla. No user ids, no time. Rows in file order; no filtering. See
    :func:`load_privic_counts` for the authors' gridding.

    Parameters
    ----------
    city : {"paris", "sf"}
    """
    return _read("latlon", f"gowalla_privic/gowalla_{city}.csv")


# ---------------------------------------------------------------------------------------------
# MovieLens


@dataclass
class MovieLens:
    """A MovieLens release (Harper & Konstan 2015).

    Attributes
    ----------
    ratings : DataFrame
        ``user``, ``item``, ``rating`` (float), ``timestamp`` (int, Unix seconds), file order.
    items : DataFrame
        One row per movie, column ``item`` first (``movies`` is an alias).
    users : DataFrame or None
        Demographics (ml-100k only).
    tags, links : DataFrame or None
        ml-latest-small only.
    name : str
    """

    ratings: pd.DataFrame
    items: pd.DataFrame
    users: pd.DataFrame | None = None
    tags: pd.DataFrame | None = None
    links: pd.DataFrame | None = None
    name: str = ""

    @property
    def movies(self) -> pd.DataFrame:
        return self.items


def _read_ml_csv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path)


def _read_ml_links(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype={"imdbId": str, "tmdbId": "Int64"})


@contract()
def load_movielens_latest_small() -> MovieLens:
    """MovieLens ``ml-latest-small`` (GroupLens, 2018 snapshot): 100,836 ratings by 610 users.

    Source: https://files.grouplens.org/datasets/movielens/ml-latest-small.zip (members
    ``ratings.csv``, ``movies.csv``, ``tags.csv``, ``links.csv``). Columns renamed to
    ``user``/``item`` (userId/movieId); ratings 0.5..5.0 in half stars; nothing dropped.
    """
    ratings = _read("ml_csv", "movielens_latest_small/ratings.csv").rename(
        columns={"userId": "user", "movieId": "item"}
    )
    ratings["rating"] = ratings["rating"].astype(np.float64)
    items = _read("ml_csv", "movielens_latest_small/movies.csv").rename(columns={"movieId": "item"})
    tags = _read("ml_csv", "movielens_latest_small/tags.csv").rename(columns={"userId": "user", "movieId": "item"})
    links = _read("ml_links", "movielens_latest_small/links.csv").rename(
        columns={"movieId": "item", "imdbId": "imdb_id", "tmdbId": "tmdb_id"}
    )
    return MovieLens(ratings=ratings, items=items, tags=tags, links=links, name="ml-latest-small")


ML100K_GENRES = [
    "unknown", "Action", "Adventure", "Animation", "Children's", "Comedy", "Crime", "Documentary", "Drama",
    "Fantasy", "Film-Noir", "Horror", "Musical", "Mystery", "Romance", "Sci-Fi", "Thriller", "War", "Western",
]  # fmt: skip


def _read_ml100k_data(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, sep="\t", header=None, names=["user", "item", "rating", "timestamp"])
    df["rating"] = df["rating"].astype(np.float64)
    return df


def _read_ml100k_item(path: Path) -> pd.DataFrame:
    cols = ["item", "title", "release_date", "video_release_date", "imdb_url"] + ML100K_GENRES
    return pd.read_csv(path, sep="|", header=None, names=cols, encoding="latin-1")


def _read_ml100k_user(path: Path) -> pd.DataFrame:
    return pd.read_csv(
        path, sep="|", header=None, names=["user", "age", "gender", "occupation", "zip_code"], dtype={"zip_code": str}
    )


@contract()
def load_movielens_100k() -> MovieLens:
    """MovieLens 100k (GroupLens, 1998): 100,000 ratings (1..5) by 943 users on 1,682 movies.

    Source: https://files.grouplens.org/datasets/movielens/ml-100k.zip (members ``u.data``,
    ``u.item`` (latin-1, 19 genre flags), ``u.user``). Nothing dropped.
    """
    ratings = _read("ml100k_data", "movielens_100k/u.data")
    items = _read("ml100k_item", "movielens_100k/u.item")
    users = _read("ml100k_user", "movielens_100k/u.user")
    return MovieLens(ratings=ratings, items=items, users=users, name="ml-100k")


# ---------------------------------------------------------------------------------------------
# Foursquare fragment


def _read_foursquare(path: Path) -> pd.DataFrame:
    df = pd.read_csv(path, compression="gzip")
    df = df.rename(
        columns={
            "user_id": "user",
            "POI_id": "poi",
            "POI_catid": "category_id",
            "POI_catname": "category",
            "latitude": "lat",
            "longitude": "lon",
            "timezone": "timezone_offset",
            "UTC_time": "time",
        }
    )
    df["time"] = pd.to_datetime(df["time"], format="%a %b %d %H:%M:%S %z %Y", utc=True)
    return df


@contract()
def load_foursquare_nyc_fragment() -> pd.DataFrame:
    """A fragment (about 10 %) of Foursquare TSMC2014 NYC (Yang et al. 2015): 21,406 check-ins, 962 users.

    Source: the validation and test splits (``NYC_val.csv.gz``, ``NYC_test.csv.gz``) of a public
    next-POI benchmark derived from ``dataset_TSMC2014_NYC``; no public URL is registered, so it is
    only available through ``LDPNB_DATA_DIR``. Only for a second-platform sanity check.

    Columns: ``user``, ``poi``, ``category_id``, ``category``, ``lat``, ``lon``,
    ``timezone_offset`` (minutes), ``time`` (UTC), ``trajectory_id``, ``time_period``, ``split``
    (``"val"`` or ``"test"``).
    """
    val = _read("foursquare", "foursquare_nyc_getnext_partial/NYC_val.csv.gz")
    val["split"] = "val"
    test = _read("foursquare", "foursquare_nyc_getnext_partial/NYC_test.csv.gz")
    test["split"] = "test"
    return pd.concat([val, test], ignore_index=True)


_READERS = {
    "adult": _read_adult_file,
    "acs": _read_acs,
    "gowalla_nyc": _read_gowalla_nyc,
    "latlon": _read_latlon,
    "ml_csv": _read_ml_csv,
    "ml_links": _read_ml_links,
    "ml100k_data": _read_ml100k_data,
    "ml100k_item": _read_ml100k_item,
    "ml100k_user": _read_ml100k_user,
    "foursquare": _read_foursquare,
}
