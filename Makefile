# The two set-up commands of the README. Everything else is CMake.
BUILD ?= build
CMAKE ?= cmake
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build demo test clean

all: build

build:
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	$(CMAKE) --build $(BUILD) -j $(JOBS)

UTF8KIT = ./$(BUILD)/cli/utf8kit
SAMPLE = examples/cli-sample.txt

demo: build
	./$(BUILD)/example_demo examples/sample.txt
	@echo; echo '== utf8kit check: the sample has deliberate errors, so exit status 1 is expected'
	$(UTF8KIT) check $(SAMPLE); test $$? -eq 1
	@echo; echo '== utf8kit count'
	$(UTF8KIT) count $(SAMPLE)
	@echo; echo '== utf8kit detect (exit status 1: not UTF-8)'
	$(UTF8KIT) detect $(SAMPLE); test $$? -eq 1
	@echo; echo '== utf8kit fix --cp1252: repair into a copy, then check the copy'
	$(UTF8KIT) fix --cp1252 $(SAMPLE) -o $(BUILD)/cli-sample.fixed.txt
	$(UTF8KIT) check $(BUILD)/cli-sample.fixed.txt && echo 'the repaired copy is valid UTF-8'
	@echo; echo '== utf8kit encode / decode: the examples of RFC 3629 section 7'
	$(UTF8KIT) encode U+0041 U+2262 U+0391 U+002E
	$(UTF8KIT) decode ED 95 9C EA B5 AD EC 96 B4
	$(UTF8KIT) inspect -s 'A≢Α.'

# (cd into the build: ctest's --test-dir needs CMake 3.20, the README asks for 3.16)
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
