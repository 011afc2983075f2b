fn main() {
    let source = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let name = std::env::args().nth(2).unwrap();
    let (_, plan) = accel_core::compile_source(&source, &name).unwrap_or_else(|e| panic!("{}", e.message));
    println!("{plan}");
    let rt = quote::quote!(rt);
    let body = accel_kernels::cpu::program_body(&plan, &rt);
    let file = quote::quote!(fn program() { #body });
    println!("{}", prettyplease::unparse(&syn::parse2(file).unwrap()));
}
