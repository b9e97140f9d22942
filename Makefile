# ldpnb — two commands on a fresh machine (Python >= 3.10 and make):
#   make book   build the whole book (venv, install, execute every chapter at SCALE=book, render _build/html)
#   make test   run the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SCALE  ?= book
JOBS   ?= 2
NAME   ?=
HTML   ?=
STAMP  := $(VENV)/.ldpnb-installed
LAB    := $(VENV)/.ldpnb-lab-installed

export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1

.PHONY: help venv lint typecheck test test-all test-built test-notebook test-package book pdf execute render chapter preview sync lab bench paper clean

help:
	@echo "make book     execute every chapter (SCALE=$(SCALE), JOBS=$(JOBS)) and render _build/html"
	@echo "make test     lint (ruff), then run the test suite (every chapter executed at smoke scale included)"
	@echo "make lint     ruff check (rules in pyproject.toml)"
	@echo "make typecheck  mypy on ldpnb/ (basic mode; [tool.mypy] in pyproject.toml)"
	@echo "make chapter NAME=pie SCALE=smoke [HTML=1]   execute one chapter into _build/chapters/pie/"
	@echo "                                             (HTML=1: and render a one-chapter preview there)"
	@echo "make preview NAME=pie SCALE=smoke            the same as HTML=1"
	@echo "make test-built  check the built book: executed outputs, and the pages in headless Chromium"
	@echo "make pdf      the whole book as one PDF (_build/pdf/ldpnb-book.pdf), printed from _build/html by Chromium"
	@echo "make test-notebook  a chapter in a fresh venv with only what its Colab install cell installs (slow)"
	@echo "make test-package  build the wheel and sdist, twine check, run the quickstart's core from the wheel"
	@echo "make lab      install JupyterLab + jupytext into .venv and open the chapters"
	@echo "make sync     pair every book/*.py with its book/*.ipynb (outputs stripped)"
	@echo "make bench    run the benchmark appendix alone at full size"
	@echo "make paper    every chapter at SCALE=paper (hours of CPU), JOBS=$(JOBS) 1-thread chapter processes at once,"
	@echo "              longest first; records in results/paper/ (the whole run: results/paper/runs/last.json)"

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[book,test,bench]'
	@touch $(STAMP)

$(LAB): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[book,test,bench,lab]'
	@touch $(LAB)

venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy's basic mode on ldpnb/ ([tool.mypy] in pyproject.toml, with its per-module baseline)
typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/python -m pytest -n $(JOBS) -m "not slow and not built" -q

test-all: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) -m "not built" -q

# after `make book`: the executed notebooks are clean, the pages work in a real browser
test-built: $(STAMP)
	$(BIN)/python -m pytest -m built -q tests/test_outputs.py tests/test_browser.py tests/test_apidoc.py

# after `make book`: every page printed by headless Chromium (offline), concatenated; fails on a missing figure
pdf: $(STAMP)
	$(BIN)/python -m ldpnb.repro.pdf

# one-click notebooks: foundations executed in a fresh virtual environment holding only what its
# first cell (the Colab install cell) installs
test-notebook: $(STAMP)
	$(BIN)/python -m pytest -m slow -q tests/test_colab.py

# the package as users get it: wheel and sdist built (python -m build, twine check), then the wheel alone
# (with numpy and scipy) in a fresh venv runs the quickstart's core cells
test-package: $(STAMP)
	$(BIN)/python -m pytest -m slow -q tests/test_packaging.py

book: $(STAMP)
	$(BIN)/python -m ldpnb.repro.build all --scale $(SCALE) --jobs $(JOBS)

execute: $(STAMP)
	$(BIN)/python -m ldpnb.repro.build execute --scale $(SCALE) --jobs $(JOBS)

render: $(STAMP)
	$(BIN)/python -m ldpnb.repro.build render

chapter: $(STAMP)
	@test -n "$(NAME)" || (echo "usage: make chapter NAME=<chapter> [SCALE=smoke|book|paper] [HTML=1]"; exit 2)
	$(BIN)/python -m ldpnb.repro.build chapter $(NAME) --scale $(SCALE) $(if $(HTML),--html,)

preview: $(STAMP)
	@test -n "$(NAME)" || (echo "usage: make preview NAME=<chapter> [SCALE=smoke|book|paper]"; exit 2)
	$(BIN)/python -m ldpnb.repro.build chapter $(NAME) --scale $(SCALE) --html

sync: $(STAMP)
	@for f in book/*.py; do $(BIN)/jupytext --quiet --set-formats ipynb,py:percent "$$f"; done
	@$(BIN)/python -m ldpnb.repro.nbstrip book/*.ipynb

lab: $(LAB)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root,) $(LAB_ARGS) book/

bench: $(STAMP)
	$(BIN)/python -m ldpnb.repro.build execute --scale paper --only performance

# the whole book at the paper's scale: each chapter in its own process with one BLAS/OpenMP thread, JOBS at
# once, longest first (ldpnb/repro/paperscale.py); the same records as one chapter at a time (tested at smoke scale).
# The longest chapter (multidim_risks, started first) also gets JOBS worker processes for its XGBoost fits
# (single-thread fits: the same numbers on any number of workers), so it does not run alone on one core at the end
paper: $(STAMP)
	$(BIN)/python -m ldpnb.repro.paperscale --jobs $(JOBS) --workers multidim_risks=$(JOBS)

clean:
	rm -rf _build
