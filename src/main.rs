fn main() {
    std::process::exit(ccv::cli::main());
}
