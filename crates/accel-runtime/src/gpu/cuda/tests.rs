//! Tests of the CUDA device. Those that need a GPU print why they skipped when
//! the probe finds none.

use super::*;

const ADD_ONE: &str = include_str!("add_one.ptx");

/// Device 0, or `None` after printing why the test is skipped.
fn gpu(test: &str) -> Option<Arc<CudaDevice>> {
    match device(0) {
        Ok(d) => Some(d),
        Err(e) => {
            println!("skipped {test}: no CUDA device ({})", e.message());
            None
        }
    }
}

fn upload_u32(d: &CudaDevice, xs: &[u32]) -> DevicePtr {
    let bytes: Vec<u8> = xs.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let ptr = d.alloc(bytes.len()).expect("alloc");
    d.upload(ptr, &bytes).expect("upload");
    ptr
}

fn download_u32(d: &CudaDevice, ptr: DevicePtr, n: usize) -> Vec<u32> {
    let mut bytes = vec![0u8; n * 4];
    d.download(ptr, &mut bytes).expect("download");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn without_a_driver_the_device_is_unavailable() {
    match probe() {
        Probe::NoLibrary => {
            let e = device(0).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::BackendUnavailable);
            assert!(e.message().contains("libcuda"), "{e}");
            assert_eq!(e.op(), "Backend::cuda(0)");
        }
        other => {
            println!("skipped without_a_driver_the_device_is_unavailable: the driver is present ({other:?})")
        }
    }
}

#[test]
fn a_device_past_the_count_is_unavailable() {
    let n = probe().devices();
    let e = device(n).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BackendUnavailable);
    if matches!(probe(), Probe::Ready { .. }) {
        assert!(e.message().contains(&format!("there are {n}")), "{e}");
    }
}

#[test]
fn round_trip_and_launch() {
    let Some(d) = gpu("round_trip_and_launch") else {
        return;
    };
    let n = 1000u32;
    let xs: Vec<u32> = (0..n).collect();
    let ptr = upload_u32(&d, &xs);
    let cfg = LaunchConfig {
        grid: [n.div_ceil(128), 1, 1],
        block: [128, 1, 1],
        dynamic_shared_bytes: 0,
    };
    let args = [KernelArg::Ptr(ptr), KernelArg::U32(n)];
    d.launch(ADD_ONE, "add_one", cfg, &args).expect("launch");
    d.launch(ADD_ONE, "add_one", cfg, &args).expect("second launch");
    assert_eq!(download_u32(&d, ptr, n as usize), (2..n + 2).collect::<Vec<_>>());
    // The module was loaded once.
    assert_eq!(d.modules().len(), 1);

    let other = d.alloc(n as usize * 4).expect("alloc");
    d.memset(other, 0xff, n as usize * 4).expect("memset");
    assert!(download_u32(&d, other, n as usize).iter().all(|&x| x == u32::MAX));
    d.copy(other, ptr.offset(4), (n as usize - 1) * 4).expect("copy");
    let copied = download_u32(&d, other, n as usize);
    assert_eq!(&copied[..n as usize - 1], &(3..n + 2).collect::<Vec<_>>()[..]);
    assert_eq!(copied[n as usize - 1], u32::MAX);
    d.free(ptr);
    d.free(other);
    d.synchronize().expect("synchronize");
}

#[test]
fn zero_byte_allocations() {
    let Some(d) = gpu("zero_byte_allocations") else {
        return;
    };
    let a = d.alloc(0).expect("alloc 0");
    let b = d.alloc(0).expect("alloc 0");
    assert_ne!(a, b);
    d.upload(a, &[]).expect("empty upload");
    d.download(a, &mut []).expect("empty download");
    d.copy(a, b, 0).expect("empty copy");
    assert_eq!(d.upload(a, &[1]).unwrap_err().kind(), ErrorKind::InvalidArgument);
    d.free(a);
    d.free(b);
    d.synchronize().expect("synchronize");
}

#[test]
fn too_large_an_allocation_is_out_of_memory() {
    let Some(d) = gpu("too_large_an_allocation_is_out_of_memory") else {
        return;
    };
    let e = d.alloc(1 << 50).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfMemory, "{e}");
    assert!(e.message().contains("CUDA_ERROR_OUT_OF_MEMORY"), "{e}");
    // The device still works.
    let p = d.alloc(16).expect("alloc after OOM");
    d.free(p);
    d.synchronize().expect("synchronize");
}

#[test]
fn bad_arguments_are_errors() {
    let Some(d) = gpu("bad_arguments_are_errors") else {
        return;
    };
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        dynamic_shared_bytes: 0,
    };
    let p = d.alloc(128).expect("alloc");
    let e = d
        .launch(ADD_ONE, "add_one", cfg, &[KernelArg::Ptr(p)])
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    let e = d
        .launch(ADD_ONE, "add_one", cfg, &[KernelArg::Ptr(p), KernelArg::U64(32)])
        .unwrap_err();
    assert!(e.message().contains("argument 1"), "{e}");
    let e = d.launch(ADD_ONE, "no_such_kernel", cfg, &[]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DeviceFailure, "{e}");
    assert!(e.message().contains("CUDA_ERROR_NOT_FOUND"), "{e}");
    let bad = LaunchConfig {
        block: [4096, 1, 1],
        ..cfg
    };
    let e = d
        .launch(ADD_ONE, "add_one", bad, &[KernelArg::Ptr(p), KernelArg::U32(32)])
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DeviceFailure, "{e}");
    d.free(p);
    d.synchronize().expect("the device still works");
}

#[test]
fn jit_errors_carry_the_log() {
    let Some(d) = gpu("jit_errors_carry_the_log") else {
        return;
    };
    const BAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n";
    let e = d
        .launch(
            BAD,
            "k",
            LaunchConfig {
                grid: [1; 3],
                block: [1; 3],
                dynamic_shared_bytes: 0,
            },
            &[],
        )
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DeviceFailure, "{e}");
    assert!(e.message().contains("JIT log"), "{e}");
    println!("{e}");
}

#[test]
fn kernel_resources_are_plausible() {
    let Some(d) = gpu("kernel_resources_are_plausible") else {
        return;
    };
    let r = d
        .kernel_resources(ADD_ONE, "add_one", 0)
        .expect("kernel_resources");
    println!("{r:?}");
    assert!(r.registers > 0);
    assert_eq!(r.static_shared_bytes, 0);
    assert!(r.suggested_block > 0 && r.suggested_block <= r.max_threads_per_block);
    assert!(r.max_threads_per_block <= d.props().max_threads_per_block);
    assert!(r.min_grid_for_full_occupancy >= d.props().multiprocessors);
}

#[test]
fn resident_blocks_follow_the_block_size() {
    let Some(d) = gpu("resident_blocks_follow_the_block_size") else {
        return;
    };
    // A small kernel: a multiprocessor (2048 threads from Volta on, at most
    // 64 resident blocks) holds several blocks of 256 threads, and at least as
    // many of 128; the second query comes from the cache and agrees.
    let b256 = d.resident_blocks(ADD_ONE, "add_one", 256, 0).expect("occupancy");
    let b128 = d.resident_blocks(ADD_ONE, "add_one", 128, 0).expect("occupancy");
    println!("256 threads: {b256} blocks, 128 threads: {b128} blocks");
    assert!((2..=8).contains(&b256), "{b256}");
    assert!(b128 >= b256 && b128 <= 64, "{b128}");
    assert_eq!(
        d.resident_blocks(ADD_ONE, "add_one", 256, 0).expect("occupancy"),
        b256
    );
    assert!(d.resident_blocks(ADD_ONE, "no_such_kernel", 256, 0).is_err());
}

#[test]
fn props_and_name() {
    let Some(d) = gpu("props_and_name") else { return };
    let p = d.props();
    assert!(p.multiprocessors > 0 && p.max_threads_per_block >= 512 && p.shared_bytes_per_block >= 16 * 1024);
    assert_eq!(p.warp_size, 32);
    assert_eq!(d.name(), format!("cuda:0 ({})", p.name));
    assert!(Arc::ptr_eq(&d, &device(0).expect("device 0 again")));
}

#[test]
fn large_dynamic_shared_memory_is_opted_in() {
    let Some(d) = gpu("large_dynamic_shared_memory_is_opted_in") else {
        return;
    };
    let p = upload_u32(&d, &[7; 32]);
    let args = [KernelArg::Ptr(p), KernelArg::U32(32)];
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [32, 1, 1],
        dynamic_shared_bytes: 64 * 1024,
    };
    d.launch(ADD_ONE, "add_one", cfg, &args)
        .expect("launch with 64 KiB of dynamic shared memory");
    assert_eq!(download_u32(&d, p, 32), vec![8; 32]);
    let too_much = LaunchConfig {
        dynamic_shared_bytes: 1 << 20,
        ..cfg
    };
    let e = d.launch(ADD_ONE, "add_one", too_much, &args).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DeviceFailure, "{e}");
    d.free(p);
    d.synchronize().expect("the device still works");
}
